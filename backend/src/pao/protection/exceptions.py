"""Refusals of player protection (codes in the error catalogue, texts in th/la/en)."""

from __future__ import annotations

from pao.core.errors import BadRequest, Forbidden


class PlayExcluded(Forbidden):
    """The member took a time-out or self-excluded: no deposit, play or bonus until ``until``
    (withdrawals stay open)."""

    code = "PLAY_EXCLUDED"


class DepositLimitReached(BadRequest):
    """The deposit would pass the member's own limit; ``remaining`` (major units) is what the
    tightest period still allows."""

    code = "DEPOSIT_LIMIT_REACHED"


class ProtectionChangeRefused(BadRequest):
    """A change the rules do not allow (a shorter exclusion, ending one before its time)."""

    code = "PROTECTION_CHANGE_REFUSED"


class LossLimitReached(BadRequest):
    """The member's loss limit (deposits less withdrawals over a period) is reached, or this
    deposit would pass it; ``remaining`` (major units) is what may still go in."""

    code = "LOSS_LIMIT_REACHED"
