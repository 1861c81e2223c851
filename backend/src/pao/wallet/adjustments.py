"""Manual adjustments: staff credit or debit a member's wallet by hand, with a reason.

The money is always a ledger entry between the member's wallet and the operator's
MANUAL_ADJUSTMENTS account, never an edit of a balance. Life of an adjustment (every change
goes through :data:`ADJUSTMENT_TRANSITIONS`)::

    (request) ── within the limits, or an operator at the shell ──► POSTED  entry written
        └── past a limit ──► AWAITING_APPROVAL ──approve──► POSTED          entry written
                                        └──reject──► REJECTED                nothing moved

The limits are site settings per currency (minor units): ``manualAdjustmentApprovalAbove`` for
one adjustment, and, so that it cannot be split into many small ones, the totals one staff
member (``manualAdjustmentStaffDaily``) and one member (``manualAdjustmentMemberDaily``) may
have posted alone in the last 24 hours, each direction apart. An adjustment that would pass any
of them waits, with its reasons kept (:class:`ApprovalReason`), for a second staff member to
approve (four eyes): never the one who asked. Concurrent requests of one staff member or for one
member are serialised (PostgreSQL: advisory locks; SQLite: one writer) before the totals are
read, so that two requests cannot each fit under a limit they pass together. Approving locks the
adjustment row first and checks the transition before any money moves, so of N concurrent
approvals exactly one posts; the others find it decided. A debit is refused with
MONEY_NOT_ENOUGH when the wallet lacks the money *when it posts* (at the request, or at the
approval): the ledger checks it under the wallet's row lock.

A manual credit is not a player's deposit: it publishes no ``DepositCredited`` and so earns no
invite income, wheel coins or deposit bonus (docs/adr/0010-manual-adjustments.md).

``pao ops deposit`` and the back office both call :func:`request_adjustment`; nothing else
writes a manual movement.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from sqlalchemy import func, select, text
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import BadRequest
from pao.core.inserts import insert_now
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.events import DepositCredited, publish
from pao.kit.money import Currency, recorded
from pao.kit.states import IllegalTransition, transition
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, JournalEntry
from pao.ledger.service import get_or_open_account, player_wallet, transfer
from pao.site.settings import load_site_settings
from pao.wallet.exceptions import (
    AdjustmentNotFound,
    AdjustmentOwnApproval,
    AdjustmentStatusConflict,
    AmountNotPositive,
    MemberNotFound,
)
from pao.wallet.models import (
    AdjustmentDirection,
    AdjustmentStatus,
    ApprovalReason,
    ManualAdjustment,
    Statement,
    StatementStatus,
    StatementType,
)
from pao.wallet.service import wallet_balance
from pao.wallet.statements import WALLET_LABEL, record_statement

ADJUSTMENT_TRANSITIONS: dict[AdjustmentStatus, frozenset[AdjustmentStatus]] = {
    AdjustmentStatus.AWAITING_APPROVAL: frozenset(
        {AdjustmentStatus.POSTED, AdjustmentStatus.REJECTED}
    ),
    AdjustmentStatus.POSTED: frozenset(),
    AdjustmentStatus.REJECTED: frozenset(),
}

# The statement line of an adjustment is ("manual_adjustment", adjustment id); the other end
# of the line is labelled MANUAL.
STATEMENT_REF = "manual_adjustment"
MANUAL_LABEL = "MANUAL"
# Journal entry kinds: a correction by staff, and money the operator received by hand for the
# member (``pao ops deposit``), which is a deposit (ADR 0010). Both leave the MANUAL_ADJUSTMENTS
# account; the kind is what tells the figures a deposit from a goodwill credit.
ENTRY_KIND = {
    AdjustmentDirection.CREDIT: "manual_credit",
    AdjustmentDirection.DEBIT: "manual_debit",
}
DEPOSIT_ENTRY_KIND = "manual_deposit"


@dataclass(frozen=True)
class AdjustmentActor:
    """Who asks or decides. ``staff_id`` is set for a back-office staff member, whom the
    four-eyes rule applies to; None means an operator at the server's shell (``pao ops``,
    ``ops:<user>``) or the code itself (demo data, tests), which is trusted to post at once."""

    label: str
    staff_id: int | None = None

    @property
    def at_the_shell(self) -> bool:
        return self.staff_id is None


@dataclass(frozen=True)
class Posted:
    entry: JournalEntry
    statement: Statement


def _required_text(value: str, field: str) -> str:
    value = value.strip()
    if not value:
        raise BadRequest("KEY_MISSING", field=field)
    return value[:500]


def waits_for_approval(amount: int, limit: int | None) -> bool:
    return limit is None or amount > limit


# The window of the totals staff may post alone: a rolling day, which no midnight resets.
ALONE_WINDOW = timedelta(hours=24)


async def _posted_alone(
    session: AsyncSession, *, direction: AdjustmentDirection, currency: Currency, who: Any
) -> int:
    """What staff posted without a second approver in the window, in one direction and
    currency, for ``who`` (a condition on the requester or the member). An operator at the
    shell is not staff: not counted, as not limited."""
    total = await session.scalar(
        select(func.coalesce(func.sum(ManualAdjustment.amount), 0)).where(
            who,
            ManualAdjustment.status == AdjustmentStatus.POSTED,
            ManualAdjustment.direction == direction,
            ManualAdjustment.currency == currency,
            ManualAdjustment.requested_by_staff_id.is_not(None),
            ManualAdjustment.decided_by_staff_id == ManualAdjustment.requested_by_staff_id,
            ManualAdjustment.decided_at >= utcnow() - ALONE_WINDOW,
        )
    )
    return int(total or 0)


async def _serialise(session: AsyncSession, *, staff_id: int, member_id: int) -> None:
    """Hold, until the transaction ends, the turn of this staff member and of this member (in
    that order, always: no deadlock between two requests). SQLite needs none: its
    transactions begin IMMEDIATE, one writer at a time (pao.core.db)."""
    if session.get_bind().dialect.name != "postgresql":
        return
    for key in (f"adjustment-staff:{staff_id}", f"adjustment-member:{member_id}"):
        await session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})


async def approval_reasons(
    session: AsyncSession,
    *,
    member: Member,
    direction: AdjustmentDirection,
    amount: int,
    by: AdjustmentActor,
) -> list[ApprovalReason]:
    """Why a staff member's adjustment must wait for a second one (empty: it posts at once).
    Call it in the transaction that records the adjustment: it takes the turns of the staff
    member and the member, so the totals it reads stay true until the commit."""
    assert by.staff_id is not None
    settings = await load_site_settings(session)
    currency = Currency(member.currency)
    reasons = []
    if waits_for_approval(amount, settings.manual_adjustment_approval_above.for_currency(currency)):
        reasons.append(ApprovalReason.AMOUNT)
    await _serialise(session, staff_id=by.staff_id, member_id=member.id)
    totals = (
        (
            ApprovalReason.STAFF_DAY,
            settings.manual_adjustment_staff_daily,
            ManualAdjustment.requested_by_staff_id == by.staff_id,
        ),
        (
            ApprovalReason.MEMBER_DAY,
            settings.manual_adjustment_member_daily,
            ManualAdjustment.member_id == member.id,
        ),
    )
    for reason, limits, who in totals:
        posted = await _posted_alone(session, direction=direction, currency=currency, who=who)
        if waits_for_approval(posted + amount, limits.for_currency(currency)):
            reasons.append(reason)
    return reasons


async def request_adjustment(
    session: AsyncSession,
    *,
    member: Member,
    direction: AdjustmentDirection,
    amount: int,
    reason: str,
    by: AdjustmentActor,
) -> ManualAdjustment:
    """Record a manual credit or debit of ``amount`` (minor units) and post it at once when it
    may be: within the limits (:func:`approval_reasons`), or asked by an operator at the shell
    (``pao ops deposit``: whoever holds the server's shell holds the database too, so a second
    pair of eyes there would be theatre). Otherwise it waits, AWAITING_APPROVAL, and no money
    moves until :func:`approve_adjustment`.

    A debit the wallet cannot cover is refused with MONEY_NOT_ENOUGH, also when it would wait
    (the approval checks again: the balance may have changed meanwhile)."""
    adjustment, _ = await _request(
        session, member=member, direction=direction, amount=amount, reason=reason, by=by
    )
    return adjustment


async def _request(
    session: AsyncSession,
    *,
    member: Member,
    direction: AdjustmentDirection,
    amount: int,
    reason: str,
    by: AdjustmentActor,
    entry_kind: str | None = None,
) -> tuple[ManualAdjustment, Posted | None]:
    posted: Posted | None = None
    reason = _required_text(reason, "reason")
    if amount <= 0:
        raise AmountNotPositive()
    currency = Currency(member.currency)
    reasons = (
        []
        if by.at_the_shell
        else await approval_reasons(
            session, member=member, direction=direction, amount=amount, by=by
        )
    )
    waits = bool(reasons)
    if waits and direction == AdjustmentDirection.DEBIT:
        await _check_covered(session, member_id=member.id, currency=currency, amount=amount)
    adjustment = await insert_now(
        session,
        ManualAdjustment(
            member_id=member.id,
            direction=direction,
            amount=amount,
            currency=currency,
            reason=reason,
            status=AdjustmentStatus.AWAITING_APPROVAL if waits else AdjustmentStatus.POSTED,
            requested_by=by.label[:80],
            requested_by_staff_id=by.staff_id,
            approval_reasons=",".join(reasons) or None,
        ),
    )
    if not waits:
        # Posted on request: the requester is the one who decided.
        adjustment.decided_by = by.label[:80]
        adjustment.decided_by_staff_id = by.staff_id
        adjustment.decided_at = adjustment.created_at
        posted = await _post(session, adjustment, actor=by.label, kind=entry_kind)
    await session.flush()
    return adjustment, posted


async def _check_covered(
    session: AsyncSession, *, member_id: int, currency: Currency, amount: int
) -> None:
    if await wallet_balance(session, member_id=member_id, currency=currency) < amount:
        raise InsufficientFunds()


async def _post(
    session: AsyncSession, adjustment: ManualAdjustment, *, actor: str, kind: str | None = None
) -> Posted:
    """The ledger entry (of ``kind``, else the correction's kind) and the member's statement
    line; the ledger refuses (under the wallet's row lock) a debit the wallet cannot cover."""
    currency = Currency(adjustment.currency)
    manual = await get_or_open_account(
        session,
        kind=AccountKind.MANUAL_ADJUSTMENTS,
        currency=currency,
        member_id=adjustment.member_id,
    )
    wallet = await player_wallet(session, member_id=adjustment.member_id, currency=currency)
    credit = adjustment.direction == AdjustmentDirection.CREDIT
    entry: JournalEntry = await transfer(
        session,
        source=manual if credit else wallet,
        destination=wallet if credit else manual,
        amount=adjustment.amount,
        kind=kind or ENTRY_KIND[AdjustmentDirection(adjustment.direction)],
        actor=actor[:80],
        memo=adjustment.reason[:500],
    )
    adjustment.entry_id = entry.id
    statement = await record_statement(
        session,
        member_id=adjustment.member_id,
        statement_type=StatementType.DEPOSIT if credit else StatementType.WITHDRAW,
        status=StatementStatus.SUCCESS,
        amount=adjustment.amount,
        currency=currency,
        from_label=MANUAL_LABEL if credit else WALLET_LABEL,
        to_label=WALLET_LABEL if credit else MANUAL_LABEL,
        ref_type=STATEMENT_REF,
        ref_id=adjustment.id,
    )
    return Posted(entry=entry, statement=statement)


async def lock_adjustment(session: AsyncSession, adjustment_id: int) -> ManualAdjustment:
    """Load an adjustment under ``FOR UPDATE`` (fresh from the database)."""
    query = (
        select(ManualAdjustment)
        .where(ManualAdjustment.id == adjustment_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    adjustment = (await session.execute(query)).scalar_one_or_none()
    if adjustment is None:
        raise AdjustmentNotFound(adjustment_id=adjustment_id)
    return adjustment


async def _decide(
    session: AsyncSession,
    adjustment_id: int,
    new: AdjustmentStatus,
    *,
    by: AdjustmentActor,
    reason: str | None,
) -> ManualAdjustment:
    adjustment = await lock_adjustment(session, adjustment_id)
    if adjustment.status != AdjustmentStatus.AWAITING_APPROVAL:
        raise AdjustmentStatusConflict(adjustment_id=adjustment.id, status=str(adjustment.status))
    if _same_person(adjustment, by):
        raise AdjustmentOwnApproval(adjustment_id=adjustment.id)
    try:
        await transition(
            session, adjustment, new, ADJUSTMENT_TRANSITIONS, actor=by.label[:80], reason=reason
        )
    except IllegalTransition:  # pragma: no cover - the status was checked above, under lock
        raise AdjustmentStatusConflict(adjustment_id=adjustment.id) from None
    adjustment.decided_by = by.label[:80]
    adjustment.decided_by_staff_id = by.staff_id
    adjustment.decided_at = utcnow()
    return adjustment


def _same_person(adjustment: ManualAdjustment, by: AdjustmentActor) -> bool:
    if by.staff_id is not None and adjustment.requested_by_staff_id is not None:
        return by.staff_id == adjustment.requested_by_staff_id
    return by.label == adjustment.requested_by


async def approve_adjustment(
    session: AsyncSession, *, adjustment_id: int, by: AdjustmentActor
) -> ManualAdjustment:
    """AWAITING_APPROVAL → POSTED by someone other than the requester: the money moves now
    (a debit the wallet cannot cover any more is refused, and the adjustment keeps waiting)."""
    adjustment = await _decide(
        session, adjustment_id, AdjustmentStatus.POSTED, by=by, reason="approved"
    )
    await _post(session, adjustment, actor=by.label)
    await session.flush()
    return adjustment


async def reject_adjustment(
    session: AsyncSession, *, adjustment_id: int, by: AdjustmentActor, reason: str
) -> ManualAdjustment:
    """AWAITING_APPROVAL → REJECTED: no money ever moved, none moves. Rejecting is a decision
    like approving, so the requester cannot do it either (one who changed their mind asks an
    approver), which keeps the rule one rule."""
    reason = _required_text(reason, "reason")
    adjustment = await _decide(
        session, adjustment_id, AdjustmentStatus.REJECTED, by=by, reason=reason
    )
    adjustment.decision_reason = reason
    await session.flush()
    return adjustment


async def get_adjustment(session: AsyncSession, adjustment_id: int) -> AdjustmentRow:
    adjustment = await session.get(ManualAdjustment, adjustment_id)
    if adjustment is None:
        raise AdjustmentNotFound(adjustment_id=adjustment_id)
    return await row_of(session, adjustment)


async def row_of(session: AsyncSession, adjustment: ManualAdjustment) -> AdjustmentRow:
    """The adjustment with its member's phone (what a list row shows)."""
    phone = await session.scalar(select(Member.phone).where(Member.id == adjustment.member_id))
    return AdjustmentRow(adjustment, str(phone))


async def member_of(session: AsyncSession, member_id: int) -> Member:
    member = await session.get(Member, member_id)
    if member is None:
        raise MemberNotFound(member_id=member_id)
    return member


# ----- reading -------------------------------------------------------------------------------

AdjustmentSort = Literal["createdAt", "-createdAt", "amount", "-amount", "status", "-status"]
_SORT_COLUMNS = {
    "createdAt": ManualAdjustment.created_at,
    "amount": ManualAdjustment.amount,
    "status": ManualAdjustment.status,
}


@dataclass(frozen=True)
class AdjustmentRow:
    adjustment: ManualAdjustment
    member_phone: str


def _filtered(query: Any, status: AdjustmentStatus | None, member_id: int | None) -> Any:
    if status is not None:
        query = query.where(ManualAdjustment.status == status)
    if member_id is not None:
        query = query.where(ManualAdjustment.member_id == member_id)
    return query


async def search_adjustments(
    session: AsyncSession,
    *,
    status: AdjustmentStatus | None = None,
    member_id: int | None = None,
    offset: int = 0,
    limit: int = 50,
    sort: AdjustmentSort = "-createdAt",
) -> tuple[list[AdjustmentRow], int]:
    """One page of adjustments with their member's phone, and the count of all that match."""
    total = await session.scalar(
        _filtered(select(func.count()).select_from(ManualAdjustment), status, member_id)
    )
    descending = sort.startswith("-")
    column = _SORT_COLUMNS[sort.lstrip("-")]
    # The id breaks ties in the same direction, so a page boundary is stable.
    order = (
        (column.desc(), ManualAdjustment.id.desc()) if descending else (column, ManualAdjustment.id)
    )
    rows = await session.execute(
        _filtered(
            select(ManualAdjustment, Member.phone).join(
                Member, Member.id == ManualAdjustment.member_id
            ),
            status,
            member_id,
        )
        .order_by(*order)
        .offset(offset)
        .limit(limit)
    )
    return [AdjustmentRow(a, phone) for a, phone in rows.all()], int(total or 0)


# ----- the operator's credit (pao ops deposit, demo data, tests) -------------------------------


@dataclass(frozen=True)
class ManualCredit:
    adjustment: ManualAdjustment
    entry: JournalEntry
    statement: Statement


async def credit_manually(
    session: AsyncSession, *, member: Member, amount: int, note: str, actor: str
) -> ManualCredit:
    """Record money the operator received by hand for the member (``pao ops deposit``: cash at
    the counter, a transfer checked by hand): a POSTED adjustment by an operator at the shell
    (``actor``: ``ops:<os user>``, :func:`request_adjustment` with no four eyes), and, unlike a
    back-office correction, the member's deposit: ``DepositCredited`` (channel ``manual``)
    feeds the promotions as any deposit does (ADR 0010). The member sees a SUCCESS deposit
    line."""
    if not note.strip():
        raise BadRequest("KEY_MISSING", field="note")
    adjustment, posted = await _request(
        session,
        member=member,
        direction=AdjustmentDirection.CREDIT,
        amount=amount,
        reason=note,
        by=AdjustmentActor(label=actor),
        entry_kind=DEPOSIT_ENTRY_KIND,
    )
    assert posted is not None  # an operator's adjustment always posts at once
    await publish(
        session,
        DepositCredited(
            member_id=member.id,
            amount=amount,
            currency=Currency(member.currency),
            channel="manual",
            reference=f"manual:{adjustment.id}",
        ),
    )
    return ManualCredit(adjustment=adjustment, entry=posted.entry, statement=posted.statement)


def snapshot(adjustment: ManualAdjustment) -> dict[str, Any]:
    """What the audit log keeps of an adjustment, before and after a change (JSON-ready)."""
    return {
        "memberId": adjustment.member_id,
        "direction": str(adjustment.direction),
        "amount": recorded(adjustment.amount, adjustment.currency),
        "reason": adjustment.reason,
        "status": str(adjustment.status),
        "requestedBy": adjustment.requested_by,
        "decidedBy": adjustment.decided_by,
        "decisionReason": adjustment.decision_reason,
        "approvalReasons": adjustment.approval_reasons,
        "entryId": adjustment.entry_id,
    }
