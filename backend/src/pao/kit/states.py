"""Explicit state machines (money rule 6).

A status enum declares its allowed moves once; every change goes through :func:`transition`,
which refuses anything else and records the change in ``status_changes``, so no code path can,
say, pay a rejected withdrawal, and every change can be audited. :func:`transition_now` is the
same, written at once by prebuilt statements (the hot money paths: pao.core.inserts).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from sqlalchemy import String
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.core.inserts import insert_now, update_now
from pao.kit.clock import utcnow

S = TypeVar("S", bound=StrEnum)

TransitionTable = Mapping[S, frozenset[S]]


class IllegalTransition(RuntimeError):
    def __init__(self, current: StrEnum, new: StrEnum) -> None:
        super().__init__(f"illegal transition {current} → {new}")
        self.current = current
        self.new = new


class StatusChange(Base):
    __tablename__ = "status_changes"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    entity: Mapped[str] = mapped_column(String(40), index=True)
    entity_id: Mapped[int] = mapped_column(BigId, index=True)
    from_status: Mapped[str] = mapped_column(String(30))
    to_status: Mapped[str] = mapped_column(String(30))
    actor: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class HasStatus(Protocol):
    __tablename__: Any
    id: Any
    status: Any


def check_transition(table: TransitionTable[S], current: S, new: S) -> S:
    if new not in table.get(current, frozenset()):
        raise IllegalTransition(current, new)
    return new


def _checked_change(
    entity: HasStatus, new: S, table: TransitionTable[S], *, actor: str, reason: str | None
) -> StatusChange:
    """The ``status_changes`` row of moving ``entity`` to ``new``, if the table allows it."""
    current = type(new)(entity.status)
    check_transition(table, current, new)
    return StatusChange(
        entity=str(entity.__tablename__),
        entity_id=entity.id,
        from_status=str(current),
        to_status=str(new),
        actor=actor,
        reason=reason,
    )


async def transition(
    session: AsyncSession,
    entity: HasStatus,
    new: S,
    table: TransitionTable[S],
    *,
    actor: str,
    reason: str | None = None,
) -> None:
    """Move ``entity.status`` to ``new`` if the table allows it, and record the change."""
    change = _checked_change(entity, new, table, actor=actor, reason=reason)
    entity.status = new
    session.add(change)


async def transition_now(
    session: AsyncSession,
    entity: HasStatus,
    new: S,
    table: TransitionTable[S],
    *,
    actor: str,
    reason: str | None = None,
    also: Mapping[str, Any] | None = None,
) -> None:
    """:func:`transition`, sent at once: the ``status_changes`` row (one ``INSERT``), then the
    entity's status and the attributes in ``also`` (one ``UPDATE`` by primary key), both
    prebuilt statements on the executor; ``entity`` holds the new values as committed."""
    await insert_now(session, _checked_change(entity, new, table, actor=actor, reason=reason))
    await update_now(session, entity, {"status": new, **(also or {})})
