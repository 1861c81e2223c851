"""The incremental refresh of the summary tables (ADR 0015).

The journal is append-only, so the summaries only ever *add* the entries they have not seen.
``report_watermarks`` holds the highest entry id summarised; one refresher at a time holds its
row (``SELECT … FOR UPDATE``; the background job skips when another process has it). On
PostgreSQL entry ids are handed out before their transactions commit, so an id above the
watermark may still be invisible when a later one is seen: such an id is kept as a *gap* and
looked for again by every refresh, until it shows up (summarised then) or stays absent for
:data:`GAP_PATIENCE` (a rolled-back transaction: its id never commits). The set of entries a
batch summarises is read once and passed to each statement, so all of them see the same entries
although every statement of a READ COMMITTED transaction takes a new snapshot. On SQLite the
refresher holds the database's only write lock: nothing commits meanwhile.

Nothing here touches the ledger's posting path: it reads committed journal rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Insert,
    Select,
    and_,
    bindparam,
    case,
    cast,
    delete,
    exists,
    func,
    literal_column,
    or_,
    select,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from pao.kit.clock import utcnow
from pao.kit.days import local_day
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount, Posting
from pao.payments.slips.models import Slip
from pao.reports.models import LedgerDay, MemberDay, MemberFirstDeposit, Watermark, WatermarkGap
from pao.reports.sources import CORRECTION_KINDS, DEPOSIT_SOURCES

NAME = "journal"
BATCH = 20_000  # entries a step: bounded memory and a bounded statement
GAP_PATIENCE = timedelta(minutes=10)
SUMMARIES = (LedgerDay, MemberDay, MemberFirstDeposit)


def _insert(session: AsyncSession, table: Any) -> Any:
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


async def _lock(session: AsyncSession, zone: ZoneInfo, *, wait: bool) -> Watermark | None:
    """The watermark row under this transaction's lock (created on first use); ``None`` if
    another refresher holds it and ``wait`` is false."""
    await session.execute(
        _insert(session, Watermark)
        .values(name=NAME, last_id=0, zone=zone.key)
        .on_conflict_do_nothing(index_elements=["name"])
    )
    query = select(Watermark).where(Watermark.name == NAME).with_for_update(skip_locked=not wait)
    mark: Watermark | None = (
        await session.execute(query.execution_options(populate_existing=True))
    ).scalar_one_or_none()
    return mark


async def _rebuild(session: AsyncSession, mark: Watermark, zone: ZoneInfo) -> None:
    """Start over: the days were cut in another time zone."""
    for table in (*SUMMARIES, WatermarkGap):
        await session.execute(delete(table))
    mark.last_id = 0
    mark.zone = zone.key


class Batch:
    """The entries one step summarises, as a condition on an entry id column."""

    def __init__(self, session: AsyncSession, ids: Sequence[int], window: Any) -> None:
        self.postgresql = session.get_bind().dialect.name == "postgresql"
        self.ids = list(ids)
        self.window = window  # (low, high, gaps): the same set while nothing else commits

    def of(self, column: Any) -> ColumnElement[bool]:
        if self.postgresql:
            # The ids read once, as one array parameter: every statement sees the same set.
            param = bindparam("batch_ids", self.ids, type_=postgresql.ARRAY(BigInteger))
            return column == func.any(param)  # type: ignore[no-any-return]
        # SQLite: this transaction holds the only write lock, so the window cannot change.
        low, high, gaps = self.window
        window = and_(column > low, column <= high)
        return or_(window, column.in_(gaps)) if gaps else window


def _day(session: AsyncSession, zone: ZoneInfo) -> ColumnElement[Any]:
    return local_day(
        JournalEntry.created_at, zone, dialect=session.get_bind().dialect.name, at=utcnow()
    )


def _ledger_days(session: AsyncSession, batch: Batch, zone: ZoneInfo) -> Insert:
    owner = case((LedgerAccount.kind == AccountKind.PLAYER_WALLET, ""), else_=LedgerAccount.owner)
    marked = exists().where(Slip.journal_entry_id == Posting.entry_id)
    rows = (
        select(
            _day(session, zone).label("r_day"),
            LedgerAccount.currency.label("r_currency"),
            LedgerAccount.kind.label("r_kind"),
            owner.label("r_owner"),
            JournalEntry.kind.label("r_entry_kind"),
            marked.label("r_marked"),
            func.sum(case((Posting.amount < 0, 1), else_=0)),
            func.sum(case((Posting.amount < 0, -Posting.amount), else_=0)),
            func.sum(case((Posting.amount > 0, 1), else_=0)),
            func.sum(case((Posting.amount > 0, Posting.amount), else_=0)),
        )
        .select_from(Posting)
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .where(batch.of(Posting.entry_id))
        .group_by(
            *(
                literal_column(name)
                for name in ("r_day", "r_currency", "r_kind", "r_owner", "r_entry_kind", "r_marked")
            )
        )
    )
    table = LedgerDay.__table__
    statement = _insert(session, LedgerDay).from_select(
        [
            "day",
            "currency",
            "account_kind",
            "owner",
            "entry_kind",
            "marked",
            "out_count",
            "out_sum",
            "in_count",
            "in_sum",
        ],
        rows,
    )
    sums = ("out_count", "out_sum", "in_count", "in_sum")
    return statement.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=[c.name for c in LedgerDay.__table__.primary_key],
        set_={name: table.c[name] + statement.excluded[name] for name in sums},
    )


def _credits(session: AsyncSession, batch: Batch, zone: ZoneInfo) -> Select[Any]:
    """Member wallet credits paid by a deposit source, in the batch: (day, member, currency,
    count, sum) by member and day. A back-office correction (a goodwill credit) is no deposit:
    it makes no depositor and no first deposit (ADR 0010)."""
    source_posting = aliased(Posting)
    source_account = aliased(LedgerAccount)
    from_source = (
        exists()
        .where(
            source_posting.entry_id == Posting.entry_id,
            source_posting.amount < 0,
            source_account.id == source_posting.account_id,
            source_account.kind.in_([kind.value for kind in DEPOSIT_SOURCES]),
        )
        .correlate(Posting)
    )
    return (
        select(
            _day(session, zone).label("r_day"),
            cast(LedgerAccount.owner, BigInteger).label("r_member"),
            LedgerAccount.currency.label("r_currency"),
            func.count().label("r_count"),
            func.sum(Posting.amount).label("r_sum"),
        )
        .select_from(Posting)
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
        .where(
            batch.of(Posting.entry_id),
            LedgerAccount.kind == AccountKind.PLAYER_WALLET,
            Posting.amount > 0,
            JournalEntry.kind.not_in(sorted(CORRECTION_KINDS)),
            from_source,
        )
        .group_by(*(literal_column(name) for name in ("r_day", "r_member", "r_currency")))
    )


def _member_days(session: AsyncSession, batch: Batch, zone: ZoneInfo) -> Insert:
    table = MemberDay.__table__
    statement = _insert(session, MemberDay).from_select(
        ["day", "member_id", "currency", "deposit_count", "deposit_sum"],
        _credits(session, batch, zone),
    )
    return statement.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=["day", "member_id", "currency"],
        set_={
            name: table.c[name] + statement.excluded[name]
            for name in ("deposit_count", "deposit_sum")
        },
    )


def _first_deposits(session: AsyncSession, batch: Batch, zone: ZoneInfo) -> Insert:
    credits = _credits(session, batch, zone).subquery()
    rows = select(credits.c.r_member, credits.c.r_currency, func.min(credits.c.r_day)).group_by(
        credits.c.r_member, credits.c.r_currency
    )
    table = MemberFirstDeposit.__table__
    statement = _insert(session, MemberFirstDeposit).from_select(
        ["member_id", "currency", "day"], rows
    )
    return statement.on_conflict_do_update(  # type: ignore[no-any-return]
        index_elements=["member_id"],
        set_={
            "day": case(
                (statement.excluded.day < table.c.day, statement.excluded.day),
                else_=table.c.day,
            )
        },
    )


async def _step(
    session: AsyncSession, mark: Watermark, zone: ZoneInfo, gaps: list[int]
) -> tuple[int, bool]:
    """Summarise one batch: (entries summarised, whether the journal's end was reached)."""
    top = (await session.execute(select(func.max(JournalEntry.id)))).scalar_one() or 0
    if top <= mark.last_id and not gaps:
        return 0, True
    upper = max(mark.last_id, min(top, mark.last_id + BATCH))
    window = and_(JournalEntry.id > mark.last_id, JournalEntry.id <= upper)
    condition = or_(window, JournalEntry.id.in_(gaps)) if gaps else window
    seen = set((await session.execute(select(JournalEntry.id).where(condition))).scalars())
    if seen:
        batch = Batch(session, sorted(seen), (mark.last_id, upper, gaps))
        await session.execute(_ledger_days(session, batch, zone))
        await session.execute(_member_days(session, batch, zone))
        await session.execute(_first_deposits(session, batch, zone))
    now = utcnow()
    found = [gap for gap in gaps if gap in seen]
    if found:
        await session.execute(delete(WatermarkGap).where(WatermarkGap.entry_id.in_(found)))
    missing = [n for n in range(mark.last_id + 1, upper + 1) if n not in seen]
    if missing:
        await session.execute(
            _insert(session, WatermarkGap)
            .values([{"entry_id": n, "noticed_at": now} for n in missing])
            .on_conflict_do_nothing(index_elements=["entry_id"])
        )
    # An id absent for GAP_PATIENCE belongs to a transaction that rolled back.
    await session.execute(delete(WatermarkGap).where(WatermarkGap.noticed_at < now - GAP_PATIENCE))
    mark.last_id = upper
    mark.refreshed_at = now
    return len(seen), upper >= top


async def refresh(
    session: AsyncSession, *, zone: ZoneInfo, wait: bool = True, max_steps: int | None = None
) -> int:
    """Summarise the journal entries not summarised yet; the number of entries summarised.

    Runs in the caller's transaction (the summaries and the watermark commit together, or
    neither does). With ``wait`` false it returns 0 at once when another refresher is busy."""
    mark = await _lock(session, zone, wait=wait)
    if mark is None:
        return 0
    if mark.zone != zone.key:
        await _rebuild(session, mark, zone)
    total = steps = 0
    # Gaps are looked for once a refresh (in its first step), not once a step.
    gaps = list((await session.execute(select(WatermarkGap.entry_id))).scalars())
    while True:
        done, at_end = await _step(session, mark, zone, gaps)
        total += done
        steps += 1
        gaps = []
        if at_end or (max_steps is not None and steps >= max_steps):
            break
    await session.flush()
    return total


async def catch_up(
    session: AsyncSession, sessionmaker: async_sessionmaker[AsyncSession], *, zone: ZoneInfo
) -> None:
    """Bring the summaries up to the last committed entry before a report reads them.

    On PostgreSQL in a short transaction of its own, so readers do not queue behind a report
    holding the watermark's lock; on SQLite in the request's own transaction, which already
    holds the database's write lock (a second connection would wait for it)."""
    if session.get_bind().dialect.name != "postgresql":
        await refresh(session, zone=zone)
        return
    async with sessionmaker() as own:
        await refresh(own, zone=zone)
        await own.commit()
