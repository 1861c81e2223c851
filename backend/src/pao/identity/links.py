"""Members linked to one another, and why: the cashier's signals of one person with two
accounts (bonus abuse, a mule's accounts, a stolen login paid out to a friend).

Four signals link two members:

* ``bank_account``: the same bank account number (what a withdrawal pays to, against another
  member's registered account);
* ``holder_name``: the same account holder name (names repeat: a weaker signal);
* ``device``: a login from the same device, at any time (the player app's own id,
  :mod:`pao.identity.device`);
* ``address``: a login from the same IP address within a window of one of the member's
  logins (mobile carriers put many subscribers behind one address, and addresses change
  hands, hence the window, and hence it holds nothing unless the operator says so).

:func:`linked_members` lists the links of one member with their reasons (the member page, a
withdrawal's detail); :func:`linked_clause` is the same test as SQL on an outer query's member,
so that a queue can flag and filter every row at once and the auto-approve job can hold them.
Both read; a link is never stored, so a changed account or a new login counts at once.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import ColumnElement, SQLColumnExpression, exists, false, or_, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from pao.identity.changes import hours_before
from pao.identity.models import LoginSession, Member


class LinkSignal(StrEnum):
    BANK_ACCOUNT = "bank_account"
    HOLDER_NAME = "holder_name"
    DEVICE = "device"
    ADDRESS = "address"


@dataclass(frozen=True)
class LinkedMember:
    member: Member
    signals: tuple[LinkSignal, ...]  # in LinkSignal's order


@dataclass(frozen=True)
class AccountPaid:
    """The account a link by bank account or holder name is looked for (a withdrawal's, or the
    member's registered one)."""

    account_no: SQLColumnExpression[str] | str
    holder_name: SQLColumnExpression[str] | str


def _same_device(member_id: SQLColumnExpression[int] | int) -> ColumnElement[bool]:
    mine, theirs = aliased(LoginSession), aliased(LoginSession)
    return exists().where(
        mine.member_id == member_id,
        mine.device_id.is_not(None),
        theirs.device_id == mine.device_id,
        theirs.member_id != member_id,
    )


def _same_address(
    member_id: SQLColumnExpression[int] | int, *, window_hours: int, dialect: str
) -> ColumnElement[bool]:
    mine, theirs = aliased(LoginSession), aliased(LoginSession)
    return exists().where(
        mine.member_id == member_id,
        mine.ip.is_not(None),
        theirs.ip == mine.ip,
        theirs.member_id != member_id,
        theirs.created_at >= hours_before(mine.created_at, window_hours, dialect=dialect),
        mine.created_at >= hours_before(theirs.created_at, window_hours, dialect=dialect),
    )


def linked_clause(
    member_id: SQLColumnExpression[int] | int,
    *,
    account: AccountPaid,
    signals: Collection[LinkSignal],
    window_hours: int,
    dialect: str,
) -> ColumnElement[bool]:
    """SQL: another member is linked to ``member_id`` by one of ``signals`` (false when none)."""
    other = aliased(Member)
    parts: list[ColumnElement[bool]] = []
    if LinkSignal.BANK_ACCOUNT in signals:
        parts.append(
            exists().where(other.id != member_id, other.bank_account_no == account.account_no)
        )
    if LinkSignal.HOLDER_NAME in signals:
        parts.append(
            exists().where(other.id != member_id, other.bank_account_name == account.holder_name)
        )
    if LinkSignal.DEVICE in signals:
        parts.append(_same_device(member_id))
    if LinkSignal.ADDRESS in signals and window_hours > 0:
        parts.append(_same_address(member_id, window_hours=window_hours, dialect=dialect))
    return or_(*parts) if parts else false()


async def linked_members(
    session: AsyncSession,
    *,
    member: Member,
    window_hours: int,
    with_address: bool,
    account: AccountPaid | None = None,
    limit: int = 20,
) -> list[LinkedMember]:
    """The members linked to ``member``, each with every signal that links them, lowest id
    first (at most ``limit``). The address signal counts only ``with_address`` (the operator
    turned it on: otherwise everyone behind a carrier's address would be listed). ``account``:
    the account a withdrawal pays to, when it is not the member's registered one."""
    paid = account or AccountPaid(member.bank_account_no, member.bank_account_name)
    found: dict[int, set[LinkSignal]] = {}

    def add(member_ids: Collection[int], signal: LinkSignal) -> None:
        for member_id in member_ids:
            found.setdefault(member_id, set()).add(signal)

    by_account = await session.execute(
        select(Member.id, Member.bank_account_no == paid.account_no).where(
            Member.id != member.id,
            or_(
                Member.bank_account_no == paid.account_no,
                Member.bank_account_name == paid.holder_name,
            ),
        )
    )
    for member_id, same_number in by_account.all():
        add([member_id], LinkSignal.BANK_ACCOUNT if same_number else LinkSignal.HOLDER_NAME)
    # A number and a name both shared: the name is listed too (each reason the cashier reads).
    same_name = await session.scalars(
        select(Member.id).where(
            Member.id.in_(list(found)), Member.bank_account_name == paid.holder_name
        )
    )
    add(list(same_name), LinkSignal.HOLDER_NAME)

    mine, theirs = aliased(LoginSession), aliased(LoginSession)
    devices = await session.scalars(
        select(theirs.member_id)
        .distinct()
        .join(mine, mine.device_id == theirs.device_id)
        .where(
            mine.member_id == member.id, mine.device_id.is_not(None), theirs.member_id != member.id
        )
    )
    add(list(devices), LinkSignal.DEVICE)
    if with_address and window_hours > 0:
        dialect = session.get_bind().dialect.name
        addresses = await session.scalars(
            select(theirs.member_id)
            .distinct()
            .join(mine, mine.ip == theirs.ip)
            .where(
                mine.member_id == member.id,
                mine.ip.is_not(None),
                theirs.member_id != member.id,
                theirs.created_at >= hours_before(mine.created_at, window_hours, dialect=dialect),
                mine.created_at >= hours_before(theirs.created_at, window_hours, dialect=dialect),
            )
        )
        add(list(addresses), LinkSignal.ADDRESS)

    ids = sorted(found)[:limit]
    members = await session.scalars(select(Member).where(Member.id.in_(ids)).order_by(Member.id))
    order = list(LinkSignal)
    return [
        LinkedMember(member=m, signals=tuple(sorted(found[m.id], key=order.index))) for m in members
    ]
