"""A payment that arrives over a limit is credited and flagged, never lost.

A paid QR, a slip, a gateway payment or a TrueMoney voucher is money that has already left the
member's bank: it cannot be refused. When its credit takes the member over a deposit or loss
limit, or arrives while they are excluded, it stays credited and a CREDITED
:class:`~pao.protection.models.ProtectionHit` flags it to staff (the member page's Protection
tab, the report of members who hit limits). Runs on :class:`~pao.kit.events.DepositCredited`,
in the deposit's own transaction.

Members without a limit or an exclusion cost nothing more than the member row, which the
deposit's session has usually loaded already (the identity map answers without a statement).
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.events import DepositCredited, subscribe
from pao.protection import hits
from pao.protection.models import HitKind, HitOutcome
from pao.protection.service import Kind, is_excluded, limits

# The operator's own credit at the counter (``pao ops deposit``) is a staff decision, not a
# payment that slipped past the checks.
_NOT_FLAGGED = frozenset({"manual"})


async def over_limit(session: AsyncSession, member: Member) -> HitKind | None:
    """Which rule the member's deposits now pass (strictly over: reaching a limit exactly is
    allowed), exclusion first; None: none."""
    if is_excluded(member):
        return HitKind.EXCLUSION
    if not member.limits_set:
        return None
    checks: tuple[tuple[Kind, HitKind], ...] = (
        ("deposit", HitKind.DEPOSIT_LIMIT),
        ("loss", HitKind.LOSS_LIMIT),
    )
    for kind, hit in checks:
        states = await limits(session, member.id, kind)
        if any(s.amount is not None and s.deposited > s.amount for s in states):
            return hit
    return None


@subscribe(DepositCredited)
async def flag_over_limit(session: AsyncSession, event: DepositCredited) -> None:
    if event.channel in _NOT_FLAGGED:
        return
    member = await session.get(Member, event.member_id)
    if member is None:
        return
    hit = await over_limit(session, member)
    if hit is not None:
        await hits.record(
            session,
            member,
            hit,
            channel=event.channel,
            amount=event.amount,
            outcome=HitOutcome.CREDITED,
            reference=event.reference,
        )
