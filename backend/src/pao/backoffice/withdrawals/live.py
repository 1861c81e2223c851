"""The withdrawal queue's live events for the cashiers' room (``backoffice:withdrawals``):
``withdrawal:new`` when a member asks for a withdrawal, ``withdrawal:updated`` when one is
claimed, released, decided, paid or failed. They are subscribers of the wallet's domain
events (the wallet does not know the back office) and are sent after the commit."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.staff_rooms import WITHDRAWALS_ROOM, emit_after_commit
from pao.kit.events import WithdrawalChanged, WithdrawalRequested, subscribe
from pao.kit.money import to_major


@subscribe(WithdrawalRequested)
async def announce_new(session: AsyncSession, event: WithdrawalRequested) -> None:
    emit_after_commit(
        session,
        "withdrawal:new",
        {
            "id": event.withdrawal_id,
            "memberId": event.member_id,
            "amount": to_major(event.amount),
            "currency": str(event.currency),
        },
        room=WITHDRAWALS_ROOM,
    )


@subscribe(WithdrawalChanged)
async def announce_change(session: AsyncSession, event: WithdrawalChanged) -> None:
    emit_after_commit(
        session,
        "withdrawal:updated",
        {"id": event.withdrawal_id, "status": event.status, "claimedBy": event.claimed_by},
        room=WITHDRAWALS_ROOM,
    )
