"""Refusals of gift links::

TrueLinkInvalid (400 TRUELINK_INVALID)     bad link, unknown/used/expired voucher
TrueLinkDuplicate (400 TRUELINK_DUPLICATE) a voucher already credited or being credited
TrueLinkMinimum (400 TRANSFER_MINIMUM)     a voucher below 2 baht (not redeemed)
NoWallet (400 NO_WALLET)                   no active TrueMoney receiving wallet
TrueMoneyUnavailable (502 INTERNAL_SERVER_ERROR) outcome unknown; submitting again retries
"""

from __future__ import annotations

from pao.core.errors import AppError, BadRequest
from pao.kit.money import to_major


class TrueLinkInvalid(BadRequest):
    code = "TRUELINK_INVALID"


class TrueLinkDuplicate(BadRequest):
    code = "TRUELINK_DUPLICATE"


class TrueLinkMinimum(BadRequest):
    code = "TRANSFER_MINIMUM"
    keeps_changes = True  # the voucher is recorded FAILED (below minimum), not redeemed

    def __init__(self, minimum: int) -> None:
        super().__init__(minimum=to_major(minimum))


class NoWallet(BadRequest):
    code = "NO_WALLET"


class TrueMoneyUnavailable(AppError):
    status_code = 502
    code = "INTERNAL_SERVER_ERROR"
