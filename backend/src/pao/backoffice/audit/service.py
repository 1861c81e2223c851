"""The audit log: who did (or opened) what, when, from where, with the values before and after.

Every state-changing back-office call writes one row through :func:`record`, in the request's
own transaction (so a rolled-back action leaves no row, and a committed one always has its
row); ``pao ops`` commands that share the service functions write the same rows with an
operator actor. Opening something sensitive (a member's full bank account number, game
credentials, a slip image) is recorded with :func:`record_sensitive_read`. The history is a
view of this table (Django admin's ``LogEntry``), never a second source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, TypeVarTuple

from sqlalchemy import Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.models import AuditEntry, Staff
from pao.kit.clock import utcnow

SENSITIVE_READ = "sensitive.read"
# The actions of signing in and out (``auth.login``, ``auth.logout`` …), and the idle lock's
# (locked after idle minutes, opened again with the password): what "hide sign-ins" leaves out.
SIGN_IN_PREFIX = "auth."
SESSION_LOCKS = ("session.lock", "session.unlock", "session.unlock_failed")


@dataclass(frozen=True)
class Actor:
    """Who acts: a logged-in staff member (with the request's IP) or an operator at the shell."""

    staff: Staff | None
    label: str
    ip: str | None = None

    @classmethod
    def of_staff(cls, staff: Staff, ip: str | None) -> Actor:
        return cls(staff=staff, label=staff.login, ip=ip)

    @classmethod
    def operator(cls, label: str) -> Actor:
        """``pao ops``: the OS user at the shell (``ops:<user>``)."""
        return cls(staff=None, label=label)

    @classmethod
    def anonymous(cls, label: str, ip: str | None) -> Actor:
        """Someone not logged in (a login attempt): named by what they typed."""
        return cls(staff=None, label=label, ip=ip)

    @property
    def staff_id(self) -> int | None:
        return self.staff.id if self.staff is not None else None


def changed(
    before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Only the fields whose value differs, as (before, after)."""
    keys = [k for k in after if before.get(k) != after[k]]
    return {k: before.get(k) for k in keys}, {k: after[k] for k in keys}


async def record(
    session: AsyncSession,
    *,
    actor: Actor,
    action: str,
    object_type: str | None = None,
    object_id: str | int | None = None,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
    detail: str | None = None,
) -> AuditEntry:
    """Append one row in the caller's transaction (flushed, so a failure shows here)."""
    entry = AuditEntry(
        at=utcnow(),
        staff_id=actor.staff_id,
        staff_role=actor.staff.role if actor.staff is not None else None,
        actor=actor.label[:80],
        action=action,
        object_type=object_type,
        object_id=str(object_id) if object_id is not None else None,
        before=dict(before) if before is not None else None,
        after=dict(after) if after is not None else None,
        ip=actor.ip,
        detail=detail[:500] if detail is not None else None,
    )
    session.add(entry)
    await session.flush()
    return entry


async def record_sensitive_read(
    session: AsyncSession,
    *,
    actor: Actor,
    object_type: str,
    object_id: str | int,
    what: str,
) -> AuditEntry:
    """Record that ``actor`` opened something sensitive (``what``: e.g. "bank_account_no",
    "game_credentials", "slip_image") of an object; call it before answering with it."""
    return await record(
        session,
        actor=actor,
        action=SENSITIVE_READ,
        object_type=object_type,
        object_id=object_id,
        detail=what,
    )


# ----- reading -------------------------------------------------------------------------------

_Ts = TypeVarTuple("_Ts")
AuditSort = Literal["at", "-at", "action", "-action", "staff", "-staff"]
_SORT_COLUMNS = {"at": AuditEntry.at, "action": AuditEntry.action, "staff": AuditEntry.actor}


@dataclass(frozen=True)
class AuditFilter:
    staff_id: int | None = None
    action: str | None = None
    object_type: str | None = None
    object_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    # Leave out sign-ins (``auth.*``: password steps, logins, failures, logouts).
    hide_sign_ins: bool = False

    def apply(self, query: Select[*_Ts]) -> Select[*_Ts]:
        if self.staff_id is not None:
            query = query.where(AuditEntry.staff_id == self.staff_id)
        if self.action:
            query = query.where(AuditEntry.action == self.action)
        if self.object_type:
            query = query.where(AuditEntry.object_type == self.object_type)
        if self.object_id:
            query = query.where(AuditEntry.object_id == self.object_id)
        if self.since is not None:
            query = query.where(AuditEntry.at >= self.since)
        if self.until is not None:
            query = query.where(AuditEntry.at < self.until)
        if self.hide_sign_ins:
            query = query.where(
                AuditEntry.action.not_like(f"{SIGN_IN_PREFIX}%"),
                AuditEntry.action.not_in(SESSION_LOCKS),
            )
        return query


@dataclass(frozen=True)
class Found:
    """An entry and the display name of the staff member who acted (None: not staff)."""

    entry: AuditEntry
    staff_name: str | None


async def search(
    session: AsyncSession,
    *,
    where: AuditFilter,
    offset: int,
    limit: int,
    sort: AuditSort = "-at",
) -> tuple[list[Found], int]:
    """One page of entries (with who acted, by name) and the count of all that match."""
    total = await session.scalar(where.apply(select(func.count()).select_from(AuditEntry)))
    column = _SORT_COLUMNS[sort.lstrip("-")]
    order = column.desc() if sort.startswith("-") else column.asc()
    # The id breaks ties in the same direction, so a page boundary is stable.
    tie = AuditEntry.id.desc() if sort.startswith("-") else AuditEntry.id.asc()
    rows = await session.execute(
        where.apply(
            select(AuditEntry, Staff.display_name).outerjoin(Staff, Staff.id == AuditEntry.staff_id)
        )
        .order_by(order, tie)
        .offset(offset)
        .limit(limit)
    )
    return [Found(entry, name) for entry, name in rows.all()], int(total or 0)
