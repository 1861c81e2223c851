"""Games refusals, one class per catalogue code (spec §8)::

BadRequest
 ├── TransferMinimum       TRANSFER_MINIMUM
 ├── SameAccount           TRANSFER_SAME_ACCOUNT (source and destination are the same)
 ├── TransferFailed        TRANSFER_FAIL (the provider refused; funds are back in the wallet)
 ├── SlotAlreadyActive     SLOT_ALREADY_ACTIVE
 ├── SlotActivateFailed    SLOT_ACTIVATE_FAIL
 ├── ResetPasswordFailed   SLOT_RESET_PASSWORD_FAIL
 ├── ProviderInMaintenance PROVIDER_MAINTENANCE (the operator set the provider into maintenance)
 └── ProviderDown          PROVIDER_UNAVAILABLE (the health tracker marked the provider down)
NotFound
 ├── NoGame                NO_GAME
 ├── NoGameAccount         SLOT_NO_ACCOUNT
 ├── NotAreaslot           NOT_AREASLOT
 └── NotUfabet             NOT_UFABET
"""

from __future__ import annotations

from pao.core.errors import BadRequest, NotFound


class TransferMinimum(BadRequest):
    code = "TRANSFER_MINIMUM"


class SameAccount(BadRequest):
    code = "TRANSFER_SAME_ACCOUNT"


class TransferFailed(BadRequest):
    code = "TRANSFER_FAIL"


class SlotAlreadyActive(BadRequest):
    code = "SLOT_ALREADY_ACTIVE"


class SlotActivateFailed(BadRequest):
    code = "SLOT_ACTIVATE_FAIL"


class ResetPasswordFailed(BadRequest):
    code = "SLOT_RESET_PASSWORD_FAIL"


class ProviderInMaintenance(BadRequest):
    """Refused before anything is written: no hold, no transfer row, no provider call."""

    code = "PROVIDER_MAINTENANCE"


class ProviderDown(BadRequest):
    """Refused before anything is written, as :class:`ProviderInMaintenance`."""

    code = "PROVIDER_UNAVAILABLE"


class NoGame(NotFound):
    code = "NO_GAME"


class NoGameAccount(NotFound):
    code = "SLOT_NO_ACCOUNT"


class NotAreaslot(NotFound):
    code = "NOT_AREASLOT"


class NotUfabet(NotFound):
    code = "NOT_UFABET"
