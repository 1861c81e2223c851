"""Read-only queries of the payments domain for the operator's figures (the dashboard).

* :func:`count_slips_to_review` — the slips whose staff review is OPEN: the review module's own
  query (:func:`pao.payments.slips.review.under_review`), so the dashboard's count and the
  back office's queue are one list. A slip approved or rejected leaves it.
* :func:`count_unmatched_payments` — bank transfers and gateway payments that matched no QR and
  were not matched by hand yet (:func:`pao.payments.qr.matching.count_payments`).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.payments.qr.matching import count_payments
from pao.payments.qr.models import PaymentOutcome
from pao.payments.slips.models import SlipReview
from pao.payments.slips.review import count_under_review


async def count_slips_to_review(session: AsyncSession) -> int:
    """Slips waiting for a cashier (review OPEN)."""
    return await count_under_review(session, SlipReview.OPEN)


async def count_unmatched_payments(session: AsyncSession) -> int:
    """Money received that matched no QR and that no one has matched by hand yet."""
    return await count_payments(session, outcome=PaymentOutcome.UNMATCHED)
