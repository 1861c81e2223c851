"""Wallet refusals, one class per code.

The spec's catalogue (§8) has no code for the withdraw limits, so ``WITHDRAW_MINIMUM`` and
``WITHDRAW_MAXIMUM`` are added (the client knows the bounds from ``/api/lookup/withdraw``).
``MONEY_NOT_ENOUGH`` comes from the ledger (:class:`pao.ledger.exceptions.InsufficientFunds`).
The operator-side errors of withdrawals (not found, already decided, claims) are answered by
the back office's withdrawal queue and printed by the ``pao ops`` commands; those of manual
adjustments (``ADJUSTMENT_*``) are answered by the back office too.
"""

from __future__ import annotations

from pao.core.errors import BadRequest, Conflict, Forbidden, NotFound


class AmountNotPositive(BadRequest):
    """Zero: the catalogue's "amount must exceed 0"."""

    code = "TRANSFER_MINIMUM"


class WithdrawBelowMinimum(BadRequest):
    code = "WITHDRAW_MINIMUM"


class WithdrawAboveMaximum(BadRequest):
    code = "WITHDRAW_MAXIMUM"


class NoBankAccount(BadRequest):
    code = "NO_BANK"


class BonusRemaining(BadRequest):
    """A bonus with unmet wagering blocks withdrawals (raised by the promotions domain)."""

    code = "BONUS_REMAINING"


class MemberNotFound(NotFound):
    code = "NO_USER"


class WithdrawalNotFound(NotFound):
    code = "NO_DATA"


class WithdrawalStatusConflict(Conflict):
    """The withdrawal is no longer in the status the decision needs (already decided)."""

    code = "WITHDRAWAL_ALREADY_DECIDED"


class StatementNotFound(NotFound):
    code = "NO_DATA"


class AdjustmentNotFound(NotFound):
    code = "ADJUSTMENT_NOT_FOUND"


class AdjustmentOwnApproval(Forbidden):
    """Four eyes: the staff member who asked for a manual adjustment cannot decide it."""

    code = "ADJUSTMENT_OWN_APPROVAL"


class AdjustmentStatusConflict(Conflict):
    """The adjustment is not awaiting approval (already posted or rejected)."""

    code = "ADJUSTMENT_ALREADY_DECIDED"


class WithdrawalClaimed(Conflict):
    """Another cashier holds an unexpired claim on the withdrawal (claim, release, decide)."""

    code = "WITHDRAWAL_CLAIMED"


class NothingToClaim(NotFound):
    """ "Claim next" found no PENDING withdrawal that nobody claims."""

    code = "WITHDRAWAL_QUEUE_EMPTY"


class WithdrawalNotClaimed(Conflict):
    """A cashier's decision on a withdrawal nobody (or no longer anybody) claims: claim first."""

    code = "WITHDRAWAL_NOT_CLAIMED"
