"""The calls to SCB around the database steps of :mod:`pao.payments.qr.scb` (ADR 0029):
confirm a claimed payment by SCB's inquiry, from the callback and from the reconciler.

No transaction stays open across an SCB call (SQLite has one writer; a slow SCB must not
hold row locks): the claim is committed first, SCB is asked, then the answer is applied in a
new transaction under the claim's lock, so concurrent deliveries of one payment credit once.
"""

from __future__ import annotations

from typing import Any

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from pao.payments.qr import scb
from pao.payments.qr.models import ScbCallback
from pao.payments.scb.oauth import ScbOAuth
from pao.payments.scb.qrpay import ScbQrApi, ScbQrUnavailable, bangkok_day

log = structlog.get_logger(__name__)


def scb_api(state: Any) -> ScbQrApi:
    """``state`` is the app's: its settings, HTTP client and SCB token cache."""
    settings, http = state.settings, state.http
    return ScbQrApi(http, settings, ScbOAuth(http, settings, state.scb_tokens))


async def confirm(session: AsyncSession, api: ScbQrApi, claim: scb.Claim) -> ScbCallback:
    """Ask SCB about ``claim`` and apply the answer (the session has no transaction open)."""
    try:
        found = await api.inquire(ref1=claim.ref1, day=bangkok_day(claim.paid_at))
    except ScbQrUnavailable as exc:
        # Unknown, not "no": asked again later (its text holds statuses and codes only).
        return await scb.settle(session, callback_id=claim.id, payment=None, answer=str(exc))
    payment = scb.confirming(claim, found, api.biller_id)
    answer = "confirmed by SCB's inquiry" if payment else "not found by SCB's inquiry"
    return await scb.settle(session, callback_id=claim.id, payment=payment, answer=answer)


async def reconcile_tick(app: Any) -> int:
    """Ask SCB again about the claims it has not confirmed yet; how many got confirmed."""
    async with app.state.sessionmaker() as session:
        claims = [scb.Claim.of(row) for row in await scb.claim_pending(session)]
        await session.commit()
    if not claims:
        return 0
    api = scb_api(app.state)
    confirmed = 0
    for claim in claims:
        async with app.state.sessionmaker() as session:
            row = await confirm(session, api, claim)
            confirmed += row.notification_id is not None
            await session.commit()
    return confirmed
