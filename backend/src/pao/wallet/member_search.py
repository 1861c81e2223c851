"""The operator's member search: by id, phone, name or bank account number, with each member's
wallet balance, filtered by status, sorted and paged in SQL.

``q`` of digits only matches the id exactly, or a phone or account number containing it; any
other text matches the name (case-insensitive) or, digits once spaces and dashes are dropped,
the phone or account number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import ColumnElement, String, cast, func, literal, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.params import MAX_DB_INT
from pao.identity.models import Member, MemberStatus
from pao.wallet.service import balance_query

MemberSort = Literal["id", "-id", "createdAt", "-createdAt", "name", "-name", "balance", "-balance"]


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def matches(q: str) -> ColumnElement[bool]:
    q = q.strip()
    digits = re.sub(r"[\s-]", "", q)
    found: list[ColumnElement[bool]] = [func.lower(Member.name).like(_like(q.lower()), escape="\\")]
    if digits.isascii() and digits.isdigit():
        if q.isdigit() and 0 < int(q) <= MAX_DB_INT:
            found.append(Member.id == int(q))
        found.append(Member.phone.like(_like(digits), escape="\\"))
        found.append(Member.bank_account_no.like(_like(digits), escape="\\"))
    return or_(*found)


@dataclass(frozen=True)
class MemberRow:
    member: Member
    balance: int


# The balance as pao.wallet.service.wallet_balance reads it, for the member of the row.
_BALANCE = func.coalesce(
    balance_query(cast(Member.id, String), cast(Member.currency, String)).scalar_subquery(),
    literal(0),
)


async def search_members(
    session: AsyncSession,
    *,
    q: str | None,
    status: MemberStatus | None,
    offset: int,
    limit: int,
    sort: MemberSort = "-id",
) -> tuple[list[MemberRow], int]:
    """One page of matching members with their balances, and the count of all matches."""

    conditions: list[ColumnElement[bool]] = []
    if q and q.strip():
        conditions.append(matches(q))
    if status is not None:
        conditions.append(Member.status == status)

    total = await session.scalar(select(func.count()).select_from(Member).where(*conditions))
    balance = _BALANCE
    columns: dict[str, Any] = {
        "id": Member.id,
        "createdAt": Member.created_at,
        "name": Member.name,
        "balance": balance,
    }
    key = sort.lstrip("-")
    descending = sort.startswith("-")
    column = columns[key]
    order = column.desc() if descending else column.asc()
    tie = Member.id.desc() if descending else Member.id.asc()
    rows = await session.execute(
        select(Member, balance).where(*conditions).order_by(order, tie).offset(offset).limit(limit)
    )
    found = [MemberRow(member=row[0], balance=int(row[1] or 0)) for row in rows.all()]
    return found, int(total or 0)
