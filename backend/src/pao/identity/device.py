"""The device a request comes from, as the player app names it: a first-party id it keeps.

The app makes a random id once per browser (``frontend/src/lib/device-id.ts``, kept in local
storage) and sends it in :data:`DEVICE_HEADER` on every write. It is a *signal*, not proof: a
member who clears the browser's storage, or a script, gets a new one. Pao keeps it with each
login (:mod:`pao.identity.links` finds members who share one) and with a claim of a bonus a
member may receive once (:mod:`pao.promotions.device_claims`). Anything that is not an id of
the app's shape is ignored, as if no id had been sent.
"""

from __future__ import annotations

import re

from starlette.requests import HTTPConnection

DEVICE_HEADER = "X-Pao-Device"
DEVICE_ID_MAX = 64
_SHAPE = re.compile(r"[A-Za-z0-9-]{16,64}")


def device_id(connection: HTTPConnection) -> str | None:
    """The request's device id, or ``None`` when it sent none of the expected shape."""
    value = connection.headers.get(DEVICE_HEADER)
    if value is None or not _SHAPE.fullmatch(value):
        return None
    return value.lower()
