"""The calls to SCB around the database steps of :mod:`pao.payments.qr.scb` (ADR 0029):
confirm a claimed payment by SCB's inquiry, from the callback and from the reconciler, and
ask the inquiry about QRs whose confirmation may have been lost.

No transaction stays open across an SCB call (SQLite has one writer; a slow SCB must not
hold row locks): the claim is committed first, SCB is asked, then the answer is applied in a
new transaction under the claim's lock, so concurrent deliveries of one payment credit once.
"""

from __future__ import annotations

from typing import Any

import structlog
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.payments.qr import scb
from pao.payments.qr.models import ScbCallback
from pao.payments.scb.oauth import ScbOAuth
from pao.payments.scb.qrpay import ScbPayment, ScbQrApi, ScbQrUnavailable, bangkok_day

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
    """Ask SCB again about the claims it has not confirmed yet, and about the QRs whose
    confirmation may have been lost; how many payments got confirmed."""
    async with app.state.sessionmaker() as session:
        claims = [scb.Claim.of(row) for row in await scb.claim_pending(session)]
        orders = await scb.claim_due_orders(session)
        await session.commit()
    if not claims and not orders:
        return 0
    api = scb_api(app.state)
    confirmed = 0
    for claim in claims:
        async with app.state.sessionmaker() as session:
            row = await confirm(session, api, claim)
            confirmed += row.notification_id is not None
            await session.commit()
    for order in orders:
        confirmed += await _poll(app, api, order)
    return confirmed


async def _poll(app: Any, api: ScbQrApi, order: scb.DueOrder) -> int:
    """SCB's payments of one QR, on the days it was open; each new one recorded and credited."""
    days = {bangkok_day(order.created_at), bangkok_day(min(order.expires_at, utcnow()))}
    found: dict[str, ScbPayment] = {}
    for day in sorted(days):
        try:
            payments = await api.inquire(ref1=order.order_ref, day=day)
        except ScbQrUnavailable as exc:  # unknown: the next check asks again
            log.warning("scb inquiry of a QR failed", error=str(exc))
            return 0
        for payment in payments:
            if payment.ref1 == order.order_ref and payment.biller_id in ("", api.biller_id):
                found[payment.transaction_id] = payment
    recorded = 0
    for payment in found.values():
        async with app.state.sessionmaker() as session:
            row = await scb.record_found(session, payment)
            await session.commit()
        recorded += row.notification_id is not None
    return recorded
