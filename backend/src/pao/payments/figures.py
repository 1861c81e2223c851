"""Read-only queries of the payments domain for the operator's figures (the dashboard).

* :func:`slip_entries` — the journal entries that credited a slip: the bank clearing account
  receives both slips and bank QR payments (KBANK / Lao QR), and this subquery tells them apart
  (``pao.ledger.figures.daily_flows(marked=...)``).
* :func:`count_slips_to_review` — FAILED slips whose reason means money may really have
  arrived, or the check could not finish (:data:`SLIP_REASONS_TO_REVIEW`).
* :func:`count_unmatched_payments` — bank transfers and gateway payments that matched no QR.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.payments.qr.models import BankNotification, GatewayPayment, PaymentOutcome
from pao.payments.slips.models import Slip, SlipReason, SlipStatus

# The bank confirmed a real transfer that a rule refused (it sits in the operator's account,
# uncredited), or the check itself could not finish: a cashier decides. Left out: a duplicate
# (already credited once), INVALID_SLIP (the bank knows no such transfer) and the unreadable
# images (the member uploads again).
SLIP_REASONS_TO_REVIEW: frozenset[SlipReason] = frozenset(
    {
        SlipReason.DEST_ACC_INVALID,
        SlipReason.NOT_MATCH,
        SlipReason.EXPIRED_SLIP,
        SlipReason.BELOW_MINIMUM_DEPOSIT,
        SlipReason.CURRENCY_MISMATCH,
        SlipReason.UNKNOW_ERROR,
        SlipReason.UNSTABLE_REFNO_ON_SLIP,
        SlipReason.TRIPPLE_WRONG_CAPTCHA,
    }
)


def slip_entries() -> Select[Any]:
    """The ids (labelled ``entry_id``) of the journal entries that credited a slip."""
    return select(Slip.journal_entry_id.label("entry_id")).where(Slip.journal_entry_id.is_not(None))


async def count_slips_to_review(session: AsyncSession) -> int:
    query = (
        select(func.count())
        .select_from(Slip)
        .where(Slip.status == SlipStatus.FAILED, Slip.reason.in_(sorted(SLIP_REASONS_TO_REVIEW)))
    )
    return int((await session.execute(query)).scalar_one())


async def count_unmatched_payments(session: AsyncSession) -> int:
    """Money received that matched no QR (bank notifications and gateway payments)."""
    total = 0
    for model in (BankNotification, GatewayPayment):
        query = (
            select(func.count()).select_from(model).where(model.outcome == PaymentOutcome.UNMATCHED)
        )
        total += int((await session.execute(query)).scalar_one())
    return total
