"""The withdrawal queue's live events for the cashiers' room (``backoffice:withdrawals``).

One event, ``withdrawals:changed``, batched (pao.backoffice.staff.rooms: every change
committed within a quarter second goes out as one emit), with the data
``{"new": [...], "updated": [...]}``; a kind with nothing in the batch is left out:

* ``new``: a member asked for a withdrawal, ``{id, memberId, amount, currency}``;
* ``updated``: one was claimed, released, decided, paid or failed, ``{id, status, claimedBy}``.

One event rather than one per kind: a browser refreshes its queue once per batch whatever it
holds. They are subscribers of the wallet's domain events (the wallet does not know the back
office) and are sent after the commit."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.staff.rooms import WITHDRAWALS_ROOM, emit_after_commit
from pao.kit.events import WithdrawalChanged, WithdrawalRequested, subscribe
from pao.kit.money import to_major

CHANGED = "withdrawals:changed"


@subscribe(WithdrawalRequested)
async def announce_new(session: AsyncSession, event: WithdrawalRequested) -> None:
    emit_after_commit(
        session,
        CHANGED,
        "new",
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
        CHANGED,
        "updated",
        {"id": event.withdrawal_id, "status": event.status, "claimedBy": event.claimed_by},
        room=WITHDRAWALS_ROOM,
    )
