"""The record of changes to who a member is and where their money is paid out.

Every change of the name, the bank account (bank, number, holder name) or the password is one
append-only :class:`~pao.identity.models.MemberChange` row, with the request's IP and user
agent (never a password or its hash). Other domains ask here whether a member's bank account
changed recently: the payouts job holds such withdrawals for a cashier, and the operator's
tools show the same answer (:func:`bank_changed_since`, :func:`bank_changed_since_clause`).
After a bank change the member gets an SMS on the registered phone
(:func:`notify_bank_change`), so the owner learns of a change they did not make.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import structlog
from sqlalchemy import ColumnElement, Interval, SQLColumnExpression, exists, func, literal, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import MemberChange, MemberChangeKind
from pao.identity.sms import SmsSender
from pao.kit.clock import utcnow

log = structlog.get_logger(__name__)

# The kinds that change where a withdrawal is paid.
BANK_KINDS = (MemberChangeKind.BANK_ACCOUNT, MemberChangeKind.BANK_ACCOUNT_NAME)
VALUE_MAX = 200


@dataclass(frozen=True)
class Origin:
    """Where a change came from: the request's client address and user agent."""

    ip: str | None
    user_agent: str | None


def bank_account_value(bank_code: str, account_no: str) -> str:
    return f"{bank_code} {account_no}"


def record_change(
    session: AsyncSession,
    *,
    member_id: int,
    kind: MemberChangeKind,
    origin: Origin,
    old: str | None = None,
    new: str | None = None,
) -> MemberChange:
    """Add one change row (flushed with the caller's transaction)."""
    change = MemberChange(
        member_id=member_id,
        kind=kind,
        old_value=None if old is None else old[:VALUE_MAX],
        new_value=None if new is None else new[:VALUE_MAX],
        ip=None if origin.ip is None else origin.ip[:64],
        user_agent=None if origin.user_agent is None else origin.user_agent[:300],
        created_at=utcnow(),
    )
    session.add(change)
    return change


def touches_bank(changes: list[MemberChange]) -> bool:
    return any(change.kind in BANK_KINDS for change in changes)


def hours_before(
    moment: SQLColumnExpression[datetime], hours: int, *, dialect: str
) -> ColumnElement[datetime]:
    """``moment - hours`` in SQL. SQLite keeps datetimes as ISO text ('YYYY-MM-DD HH:MM:SS.ffffff'),
    which ``datetime()`` shifts and which compares in time order as text."""
    if dialect == "sqlite":
        return func.datetime(moment, f"-{hours} hours")
    return moment - literal(timedelta(hours=hours), Interval())


def bank_changed_since_clause(
    member_id: SQLColumnExpression[int] | int, since: SQLColumnExpression[datetime] | datetime
) -> ColumnElement[bool]:
    """SQL: the member's bank account (bank, number or holder name) changed at or after
    ``since``. Both may be columns of the outer query (see :func:`hours_before`)."""
    return exists().where(
        MemberChange.member_id == member_id,
        MemberChange.kind.in_(BANK_KINDS),
        MemberChange.created_at >= since,
    )


async def bank_changed_since(session: AsyncSession, *, member_id: int, since: datetime) -> bool:
    """Whether the member's bank account (bank, number or holder name) changed at or after
    ``since``."""
    query = select(bank_changed_since_clause(member_id, since))
    return bool((await session.execute(query)).scalar_one())


async def recent_changes(
    session: AsyncSession, *, member_id: int, limit: int = 10
) -> list[MemberChange]:
    """The member's latest changes, newest first."""
    query = (
        select(MemberChange)
        .where(MemberChange.member_id == member_id)
        .order_by(MemberChange.created_at.desc(), MemberChange.id.desc())
        .limit(limit)
    )
    return list((await session.execute(query)).scalars())


def mask_account_no(account_no: str) -> str:
    return "x" * max(len(account_no) - 4, 0) + account_no[-4:]


def bank_change_text(*, sender: str, bank_code: str, account_no: str) -> str:
    """The SMS after a bank change. The member's language is not known to the server, so it
    is one text for everybody."""
    return (
        f"{sender}: the bank account for your withdrawals was changed to {bank_code} "
        f"{mask_account_no(account_no)}. If you did not do this, contact us at once."
    )


async def notify_bank_change(sms: SmsSender, *, phone: str, text: str) -> None:
    """Send the bank-change SMS; a failure is logged and changes nothing (the change stands)."""
    try:
        await sms.send(phone=phone, text=text)
    except Exception as exc:  # any failure: the change is committed already
        log.warning("bank change sms not sent", error=type(exc).__name__)
