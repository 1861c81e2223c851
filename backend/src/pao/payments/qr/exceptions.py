"""Refusals of QR deposits (catalogue codes, spec §8)::

QrFail (400 QR_FAIL)                 no such QR channel, the gateway refused, no amount slot
AmountBelowMinimum (400 TRANSFER_MINIMUM, with ``minimum`` in major units)
QrNotFound (404 NO_DATA)             not the member's QR
QrAlreadyPaid (409 QR_FAIL)          cancelling a paid QR
BadSignature (401 UNAUTHORIZED)      a notification/callback whose signature does not verify
"""

from __future__ import annotations

from pao.core.errors import BadRequest, Conflict, NotFound, Unauthorized
from pao.kit.money import to_major


class QrFail(BadRequest):
    code = "QR_FAIL"


class AmountBelowMinimum(BadRequest):
    code = "TRANSFER_MINIMUM"

    def __init__(self, minimum: int) -> None:
        super().__init__(minimum=to_major(minimum))


class QrNotFound(NotFound):
    code = "NO_DATA"


class QrAlreadyPaid(Conflict):
    code = "QR_FAIL"


class BadSignature(Unauthorized):
    code = "UNAUTHORIZED"
