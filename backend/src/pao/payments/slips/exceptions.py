"""Slip upload refusals (the request is refused and nothing is recorded)::

    BadRequest
     ├── SlipNoFile        SLIP_NO_FILE       no ``file`` part, or an empty one
     ├── SlipInvalidFile   SLIP_INVALID_FILE  not a PNG/JPEG by content, corrupt, over 5 MB
     └── SlipUploadFail    SLIP_UPLOAD_FAIL   + ``reason``: SLIP_UPLOAD_CLOSED during the daily
                                              closed window
    NotFound               NO_DATA            a slip or image that is not the member's

A slip that *was* accepted and then failed a check is not an error: it is recorded FAILED
with its reason and answered 200 (see the router).
"""

from __future__ import annotations

from pao.core.errors import BadRequest, NotFound


class SlipNoFile(BadRequest):
    code = "SLIP_NO_FILE"


class SlipInvalidFile(BadRequest):
    code = "SLIP_INVALID_FILE"


class SlipUploadFail(BadRequest):
    code = "SLIP_UPLOAD_FAIL"


class SlipNotFound(NotFound):
    code = "NO_DATA"
