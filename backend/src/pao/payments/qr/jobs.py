"""Background jobs of QR deposits: expire QRs, reconcile gateway orders whose callback
never came (query the gateway's status; credit through the same once-only path), and ask SCB
again about the payments it reported but has not confirmed yet (ADR 0029)."""

from __future__ import annotations

from typing import Any

import structlog

from pao.kit.jobs import PeriodicJob
from pao.payments.gateways.base import GatewayError, OrderState
from pao.payments.gateways.registry import adapter_for
from pao.payments.qr import scb_flow, service

log = structlog.get_logger(__name__)


async def expire_tick(app: Any) -> int:
    async with app.state.sessionmaker() as session:
        count = await service.expire_due(session)
        await session.commit()
    return count


async def reconcile_tick(app: Any) -> int:
    """Claim a batch (committed at once, so no transaction spans the gateway calls), ask each
    gateway, and record what it reports paid; then expire what is due."""
    async with app.state.sessionmaker() as session:
        claimed = [
            (qr.channel, qr.order_ref) for qr in await service.claim_for_reconciliation(session)
        ]
        await session.commit()
    handled = 0
    for channel, order_ref in claimed:
        adapter = adapter_for(app.state.settings, channel)
        if adapter is None:
            continue
        try:
            status = await adapter.query_status(app.state.http, order_ref=order_ref)
        except GatewayError as exc:  # unknown for now: asked again after RECHECK_AFTER
            log.warning("gateway status query failed", gateway=channel, error=str(exc))
            continue
        if status.state is OrderState.PAID and status.payment is not None:
            async with app.state.sessionmaker() as session:
                _row, duplicate = await service.record_gateway_payment(
                    session, gateway=channel, payment=status.payment, source="reconciler"
                )
                await session.commit()
            handled += 0 if duplicate else 1
    if app.state.settings.bank_api == "scb":
        handled += await scb_flow.reconcile_tick(app)
    return handled + await expire_tick(app)


def register(app: Any) -> None:
    app.state.jobs.append(PeriodicJob("qr-reconciler", 30, reconcile_tick))
