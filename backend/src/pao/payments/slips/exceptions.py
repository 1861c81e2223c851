"""Slip upload refusals (the request is refused and nothing is recorded)::

    BadRequest
     ├── SlipNoFile        SLIP_NO_FILE       no ``file`` part, or an empty one
     ├── SlipInvalidFile   SLIP_INVALID_FILE  not a PNG/JPEG by content, corrupt
     └── SlipUploadFail    SLIP_UPLOAD_FAIL   + ``reason``: SLIP_UPLOAD_CLOSED during the daily
                                              closed window
    PayloadTooLarge (413)
     └── SlipTooLarge      SLIP_INVALID_FILE  over 5 MB (also answered by the edge, unread,
                                              when the whole body is over 5 MB + 64 KiB)
    NotFound               NO_DATA            a slip or image that is not the member's

A slip that *was* accepted and then failed a check is not an error: it is recorded FAILED
with its reason and answered 200 (see the router).
"""

from __future__ import annotations

from pao.core.errors import BadRequest, NotFound
from pao.core.request_limits import PayloadTooLarge


class SlipNoFile(BadRequest):
    code = "SLIP_NO_FILE"


class SlipInvalidFile(BadRequest):
    code = "SLIP_INVALID_FILE"


class SlipTooLarge(PayloadTooLarge):
    """The documented code of a file that is not a slip we take, with the status of its size."""

    code = "SLIP_INVALID_FILE"


class SlipUploadFail(BadRequest):
    code = "SLIP_UPLOAD_FAIL"


class SlipNotFound(NotFound):
    code = "NO_DATA"
