"""Reads of the seamless records for the operator: a member's rounds and transactions (filtered,
paged, and in keyset chunks for a CSV), the open rounds across members, and the seamless
clearing as the transactions add it up (the reconciliation).

Nothing here writes or locks. A member's lists run on the ``(member_id, time)`` indexes; the
open rounds on ``(closed_at, opened_at)``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Select, case, func, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.games.seamless.models import SeamlessRound, SeamlessTransaction, TxnKind
from pao.kit.money import Currency

CHUNK = 5_000  # rows a CSV chunk reads, each in a short session of its own


@dataclass(frozen=True)
class RoundFilter:
    member_id: int | None = None
    provider: str | None = None
    since: datetime | None = None  # opened at or after
    until: datetime | None = None  # opened before
    open: bool | None = None  # None: open and closed
    opened_before: datetime | None = None  # the open rounds older than a moment


@dataclass(frozen=True)
class TxnFilter:
    member_id: int
    provider: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    round_id: str | None = None


def _rounds(f: RoundFilter) -> Select[Any]:
    query = select(SeamlessRound)
    if f.member_id is not None:
        query = query.where(SeamlessRound.member_id == f.member_id)
    if f.provider is not None:
        query = query.where(SeamlessRound.provider == f.provider)
    if f.since is not None:
        query = query.where(SeamlessRound.opened_at >= f.since)
    if f.until is not None:
        query = query.where(SeamlessRound.opened_at < f.until)
    if f.opened_before is not None:
        query = query.where(SeamlessRound.opened_at < f.opened_before)
    if f.open is True:
        query = query.where(SeamlessRound.closed_at.is_(None))
    elif f.open is False:
        query = query.where(SeamlessRound.closed_at.is_not(None))
    return query


def _txns(f: TxnFilter) -> Select[Any]:
    query = select(SeamlessTransaction).where(SeamlessTransaction.member_id == f.member_id)
    if f.provider is not None:
        query = query.where(SeamlessTransaction.provider == f.provider)
    if f.since is not None:
        query = query.where(SeamlessTransaction.created_at >= f.since)
    if f.until is not None:
        query = query.where(SeamlessTransaction.created_at < f.until)
    if f.round_id is not None:
        query = query.where(SeamlessTransaction.round_id == f.round_id)
    return query


async def _page(
    session: AsyncSession, query: Select[Any], order: Sequence[Any], offset: int, limit: int
) -> tuple[int, list[Any]]:
    total = int(await session.scalar(select(func.count()).select_from(query.subquery())) or 0)
    rows = (await session.execute(query.order_by(*order).offset(offset).limit(limit))).scalars()
    return total, list(rows)


async def rounds(
    session: AsyncSession, f: RoundFilter, *, offset: int, limit: int, oldest_first: bool = False
) -> tuple[int, list[SeamlessRound]]:
    """Rounds matching ``f``, newest first (the open rounds' list: oldest first), one page."""
    order = (
        (SeamlessRound.opened_at, SeamlessRound.id)
        if oldest_first
        else (SeamlessRound.opened_at.desc(), SeamlessRound.id.desc())
    )
    return await _page(session, _rounds(f), order, offset, limit)


async def transactions(
    session: AsyncSession, f: TxnFilter, *, offset: int, limit: int
) -> tuple[int, list[SeamlessTransaction]]:
    """A member's transactions matching ``f``, newest first, one page."""
    order = (SeamlessTransaction.created_at.desc(), SeamlessTransaction.id.desc())
    return await _page(session, _txns(f), order, offset, limit)


async def round_chunks(
    sessionmaker: async_sessionmaker[AsyncSession], f: RoundFilter
) -> AsyncIterator[list[SeamlessRound]]:
    """Every round matching ``f``, newest first, in chunks (keyset: nothing held open between
    two chunks)."""
    after: tuple[datetime, int] | None = None
    while True:
        query = _rounds(f)
        if after is not None:
            query = query.where(tuple_(SeamlessRound.opened_at, SeamlessRound.id) < after)
        async with sessionmaker() as own:
            chunk = list(
                (
                    await own.execute(
                        query.order_by(SeamlessRound.opened_at.desc(), SeamlessRound.id.desc())
                        .limit(CHUNK)
                        .execution_options(populate_existing=True)
                    )
                ).scalars()
            )
            own.expunge_all()
        if not chunk:
            return
        yield chunk
        after = (chunk[-1].opened_at, chunk[-1].id)


async def transaction_chunks(
    sessionmaker: async_sessionmaker[AsyncSession], f: TxnFilter
) -> AsyncIterator[list[SeamlessTransaction]]:
    """Every transaction matching ``f``, newest first, in chunks (as :func:`round_chunks`)."""
    after: tuple[datetime, int] | None = None
    while True:
        query = _txns(f)
        if after is not None:
            query = query.where(
                tuple_(SeamlessTransaction.created_at, SeamlessTransaction.id) < after
            )
        async with sessionmaker() as own:
            chunk = list(
                (
                    await own.execute(
                        query.order_by(
                            SeamlessTransaction.created_at.desc(), SeamlessTransaction.id.desc()
                        ).limit(CHUNK)
                    )
                ).scalars()
            )
            own.expunge_all()
        if not chunk:
            return
        yield chunk
        after = (chunk[-1].created_at, chunk[-1].id)


async def clearing_by_transactions(session: AsyncSession, *, currency: Currency) -> dict[str, int]:
    """What each provider's seamless clearing must hold in ``currency`` by the transactions
    Pao recorded: the stakes it took less what it gave back (wins, and refunds of rolled-back
    stakes). A remembered rollback whose bet never came carries 0.

    One aggregate over the provider's transactions of that currency: the report that shows it
    is opened by hand, never polled (ADR 0015 keeps the polled figures on the summaries)."""
    signed = case(
        (SeamlessTransaction.kind == TxnKind.BET, SeamlessTransaction.amount),
        else_=-SeamlessTransaction.amount,
    )
    rows = await session.execute(
        select(SeamlessTransaction.provider, func.sum(signed))
        .where(SeamlessTransaction.currency == currency)
        .group_by(SeamlessTransaction.provider)
        .order_by(SeamlessTransaction.provider)
    )
    return {provider: int(total or 0) for provider, total in rows}
