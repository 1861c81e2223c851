"""The cashiers' queue of withdrawals: one page of it, narrowed by status, amount range, bank,
member, age and flags, each row with its flags.

The flags, computed in SQL for every row (so that the queue filters on them):

* ``bank_changed_recently``: the member's bank account changed within the operator's hold
  window (``bankChangeHoldHours``, 24 h by default) before the request, or since; the same
  window holds such a withdrawal back from auto-approval
  (:func:`pao.payments.payouts.service.held_for_bank_change`);
* ``linked_accounts``: another member is linked to the member by a signal the operator holds
  withdrawals for (the account number or holder name it pays to, a device, an address;
  :func:`pao.payments.payouts.service.held_for_links`); the detail lists every link and why;
* ``open_bonus``: the member holds an active bonus (its turnover still runs).

A row with none is *clean*: the queue offers to approve it from the row. That is a convenience
of the screen, not a rule: the approval goes through the same route and checks (the claim, the
permission) as from the detail.

Reads only, like :mod:`pao.backoffice.withdrawals.cashier`: it composes the wallet, identity,
promotions and payouts, which only the back office sits above.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Literal

from sqlalchemy import ColumnElement, Row, Select, exists, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.payments.payouts.service import held_for_bank_change, held_for_links
from pao.promotions.models import MemberBonus, MemberBonusStatus
from pao.site.settings import load_site_settings
from pao.wallet.exceptions import WithdrawalNotFound
from pao.wallet.models import Withdrawal, WithdrawalStatus

QueueSort = Literal["createdAt", "-createdAt", "amount", "-amount"]
_SORT_COLUMNS = {"createdAt": Withdrawal.created_at, "amount": Withdrawal.amount}
# The most digits a member id (a BIGINT) can have.
MAX_ID_DIGITS = 18


QueueFlags = Literal["clean", "flagged"]


@dataclass(frozen=True)
class QueueFilter:
    """What the queue is narrowed to (``None``: not narrowed). Amounts in minor units."""

    status: WithdrawalStatus | None = None
    amount_min: int | None = None
    amount_max: int | None = None
    bank_code: str | None = None
    # Digits: a member id or a phone number, matched exactly.
    member: str | None = None
    older_than_minutes: int | None = None
    flags: QueueFlags | None = None


@dataclass(frozen=True)
class QueueRow:
    """A withdrawal as the queue lists it, with its flags. ``clean``: none of them, so a
    cashier may approve it from the row (the approval's own rules still apply)."""

    withdrawal: Withdrawal
    member_phone: str
    member_name: str
    bank_changed_recently: bool
    linked_accounts: bool
    open_bonus: bool

    @property
    def clean(self) -> bool:
        return not (self.bank_changed_recently or self.linked_accounts or self.open_bonus)


def _open_bonus() -> ColumnElement[bool]:
    """SQL on withdrawals: the member holds an active bonus (its turnover still runs)."""
    return exists().where(
        MemberBonus.member_id == Withdrawal.member_id,
        MemberBonus.status == MemberBonusStatus.ACTIVE,
    )


async def _flag_columns(
    session: AsyncSession,
) -> tuple[ColumnElement[bool], ColumnElement[bool], ColumnElement[bool]]:
    """The three flags, as SQL: a bank account change within the operator's hold window
    (``bankChangeHoldHours``, 24 h by default, the same window that holds a withdrawal back
    from auto-approval), linked accounts (held the same way), an open bonus."""
    site = await load_site_settings(session)
    dialect = session.get_bind().dialect.name
    held = held_for_bank_change(hold_hours=site.bank_change_hold_hours, dialect=dialect)
    return held, held_for_links(site, dialect=dialect), _open_bonus()


def _conditions(
    f: QueueFilter, flags: tuple[ColumnElement[bool], ...]
) -> list[ColumnElement[bool]]:
    where: list[ColumnElement[bool]] = []
    if f.status is not None:
        where.append(Withdrawal.status == f.status)
    if f.amount_min is not None:
        where.append(Withdrawal.amount >= f.amount_min)
    if f.amount_max is not None:
        where.append(Withdrawal.amount <= f.amount_max)
    if f.bank_code is not None:
        where.append(Withdrawal.bank_code == f.bank_code)
    if f.member is not None:
        by_phone = Withdrawal.member_id.in_(select(Member.id).where(Member.phone == f.member))
        # An id is a BIGINT: longer digit strings can only be phone numbers.
        where.append(
            or_(Withdrawal.member_id == int(f.member), by_phone)
            if len(f.member) <= MAX_ID_DIGITS
            else by_phone
        )
    if f.older_than_minutes is not None:
        where.append(Withdrawal.created_at <= utcnow() - timedelta(minutes=f.older_than_minutes))
    if f.flags == "clean":
        where.append(~or_(*flags))
    elif f.flags == "flagged":
        where.append(or_(*flags))
    return where


async def list_queue(
    session: AsyncSession,
    *,
    where: QueueFilter,
    offset: int,
    limit: int,
    sort: QueueSort = "createdAt",
) -> tuple[list[QueueRow], int]:
    """One page of withdrawals (oldest first by default: the order a queue is worked in) and
    the count of all that match."""
    flags = await _flag_columns(session)
    conditions = _conditions(where, flags)
    total = await session.scalar(select(func.count()).select_from(Withdrawal).where(*conditions))
    column = _SORT_COLUMNS[sort.lstrip("-")]
    descending = sort.startswith("-")
    rows = await session.execute(
        _rows(flags)
        .where(*conditions)
        .order_by(
            column.desc() if descending else column.asc(),
            # The id breaks ties in the same direction, so a page boundary is stable.
            Withdrawal.id.desc() if descending else Withdrawal.id.asc(),
        )
        .offset(offset)
        .limit(limit)
    )
    return [_queue_row(r) for r in rows], int(total or 0)


async def queue_row(session: AsyncSession, *, withdrawal_id: int) -> QueueRow:
    """One withdrawal as the queue lists it (the answer of a claim or a decision)."""
    found = (
        await session.execute(
            _rows(await _flag_columns(session)).where(Withdrawal.id == withdrawal_id)
        )
    ).one_or_none()
    if found is None:
        raise WithdrawalNotFound(withdrawal_id=withdrawal_id)
    return _queue_row(found)


_QueueSelect = Select[Withdrawal, str, str, bool, bool, bool]
_QueueResult = Row[Withdrawal, str, str, bool, bool, bool]


def _rows(flags: tuple[ColumnElement[bool], ...]) -> _QueueSelect:
    held, linked, bonus = flags
    return select(
        Withdrawal,
        Member.phone,
        Member.name,
        held.label("held"),
        linked.label("linked"),
        bonus.label("bonus"),
    ).join(Member, Member.id == Withdrawal.member_id)


def _queue_row(row: _QueueResult) -> QueueRow:
    w, phone, name, held, linked, bonus = row
    return QueueRow(
        withdrawal=w,
        member_phone=phone,
        member_name=name,
        bank_changed_recently=bool(held),
        linked_accounts=bool(linked),
        open_bonus=bool(bonus),
    )
