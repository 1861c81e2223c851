"""Statement lines: what each domain tells the member about a movement of their money.

Domains call :func:`record_statement` in the same transaction as the ledger movement, and
:func:`set_statement_status` when a pending outcome becomes known, so the history a member
sees commits (or rolls back) together with the money. ``(ref_type, ref_id)`` identifies the
reported thing (``"withdrawal"``/id, ``"manual_adjustment"``/adjustment id, …); use a distinct
``ref_type`` for each distinct event of the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import bindparam, func, select
from sqlalchemy.exc import MultipleResultsFound
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.inserts import insert_now
from pao.kit.money import Currency
from pao.kit.pagination import PageRequest
from pao.kit.states import transition_now
from pao.wallet.exceptions import StatementNotFound
from pao.wallet.models import Statement, StatementStatus, StatementType

# The label of the member's wallet in ``from`` / ``to`` (game accounts use their game code).
WALLET_LABEL = "WALLET"

STATEMENT_TRANSITIONS: dict[StatementStatus, frozenset[StatementStatus]] = {
    StatementStatus.PENDING: frozenset({StatementStatus.SUCCESS, StatementStatus.FAILED}),
    StatementStatus.SUCCESS: frozenset(),
    StatementStatus.FAILED: frozenset(),
}


class StatementNote(BaseModel):
    """A line's note: a code and parameters (:mod:`pao.wallet.statement_notes`) and the
    description in English. Lines written before notes had codes carry only a description."""

    model_config = ConfigDict(extra="forbid")

    description: str = Field(max_length=500)
    code: str | None = Field(default=None, max_length=40)
    params: dict[str, str | dict[str, str]] = Field(default_factory=dict)


class StatementExtra(BaseModel):
    """The optional detail of a line (spec §3: one of bonus, promotion, invite, refund,
    luckydraw, each with a description; Pao adds withdraw: why a withdrawal was not paid)."""

    model_config = ConfigDict(extra="forbid")

    bonus: StatementNote | None = None
    promotion: StatementNote | None = None
    invite: StatementNote | None = None
    refund: StatementNote | None = None
    luckydraw: StatementNote | None = None
    withdraw: StatementNote | None = None


def _validated_extra(extra: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not extra:
        return None
    model = StatementExtra.model_validate(dict(extra))
    dumped = model.model_dump(exclude_none=True)
    if len(dumped) > 1:
        raise ValueError("a statement carries at most one of bonus/promotion/invite/…")
    return dumped or None


async def record_statement(
    session: AsyncSession,
    *,
    member_id: int,
    statement_type: StatementType,
    status: StatementStatus,
    amount: int,
    currency: Currency,
    from_label: str,
    to_label: str,
    ref_type: str,
    ref_id: int | str,
    extra: Mapping[str, Any] | None = None,
) -> Statement:
    """Add one line to ``member_id``'s history. ``amount`` is minor units, ≥ 0 (the client
    derives the sign from the type)."""
    if amount < 0:
        raise ValueError("statement amounts are unsigned")
    return await insert_now(
        session,
        Statement(
            member_id=member_id,
            statement_type=statement_type,
            status=status,
            amount=amount,
            currency=currency,
            from_label=from_label,
            to_label=to_label,
            ref_type=ref_type,
            ref_id=str(ref_id),
            extra=_validated_extra(extra),
        ),
    )


# The line of (ref_type, ref_id), locked (prebuilt, on the executor: pao.core.executor).
_LOCK_LINE = (
    select(Statement)
    .where(Statement.ref_type == bindparam("ref_type"), Statement.ref_id == bindparam("ref_id"))
    .with_for_update()
)


async def set_statement_status(
    session: AsyncSession,
    *,
    ref_type: str,
    ref_id: int | str,
    status: StatementStatus,
    actor: str = "system",
    extra: Mapping[str, Any] | None = None,
) -> Statement:
    """Settle the line of ``(ref_type, ref_id)``: PENDING → SUCCESS | FAILED, with ``extra``
    (as for :func:`record_statement`) when the outcome has something to say (why it failed).

    Setting the status it already has is a no-op (a repeated callback); any other change of
    a settled line raises :class:`~pao.kit.states.IllegalTransition`."""
    rows = await executor.fetch(session, _LOCK_LINE, {"ref_type": ref_type, "ref_id": str(ref_id)})
    if len(rows) > 1:  # pragma: no cover - (ref_type, ref_id) names one line
        raise MultipleResultsFound(f"lines of {ref_type} {ref_id}")
    if not rows:
        raise StatementNotFound(ref_type=ref_type, ref_id=str(ref_id))
    statement = executor.attach(session, Statement, rows[0])
    if statement.status != status:
        await transition_now(session, statement, status, STATEMENT_TRANSITIONS, actor=actor)
        if extra:
            statement.extra = _validated_extra(extra)
    return statement


async def list_statements(
    session: AsyncSession, *, member_id: int, page: PageRequest
) -> tuple[int, list[Statement]]:
    """One page of ``member_id``'s lines, newest first, and the total count."""
    total = (
        await session.execute(
            select(func.count()).select_from(Statement).where(Statement.member_id == member_id)
        )
    ).scalar_one()
    rows = (
        (
            await session.execute(
                select(Statement)
                .where(Statement.member_id == member_id)
                .order_by(Statement.created_at.desc(), Statement.id.desc())
                .limit(page.limit)
                .offset(page.offset)
            )
        )
        .scalars()
        .all()
    )
    return int(total), list(rows)
