"""The report summaries equal the ledger, on SQLite and PostgreSQL.

Seeded random activity through the ledger's own ``transfer`` (deposits from every source,
withdrawals, promotion payouts of every kind, game transfers both ways, manual debits, a
reversal) spread over days and hours, refreshed at random moments; then every summary row is
compared with the same figures computed here in Python from the raw postings. Refreshing again
changes nothing; refreshers racing each other while money moves summarise each entry once; an
entry that commits after a later one was summarised (a gap) is counted when it shows up, once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import defaultdict
from datetime import UTC, date, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount, Posting
from pao.ledger.service import get_or_open_account, player_wallet, reverse_entry, transfer
from pao.reports.models import LedgerDay, MemberDay, MemberFirstDeposit, Watermark, WatermarkGap
from pao.reports.refresh import refresh
from pao.reports.sources import DEPOSIT_SOURCES

# Also on SQLite (tests/databases.py): the summaries' SQL differs per database.
pytestmark = pytest.mark.sqlite

BANGKOK = ZoneInfo("Asia/Bangkok")
THB = Currency.THB
MEMBERS = (101, 102, 103, 104)
SOURCES = [
    (AccountKind.BANK_CLEARING, ""),
    (AccountKind.GATEWAY_CLEARING, "WW"),
    (AccountKind.GATEWAY_CLEARING, "PAYTIMZ"),
    (AccountKind.WALLET_PROVIDER_CLEARING, ""),
    (AccountKind.MANUAL_ADJUSTMENTS, ""),
]
PROMOTION_KINDS = ("bonus", "invite_bonus", "refund", "luckydraw")


async def account(session: AsyncSession, kind: AccountKind, owner: str = "") -> LedgerAccount:
    return await get_or_open_account(session, kind=kind, currency=THB, owner=owner)


async def one_move(app: FastAPI, rng: random.Random) -> None:
    """One random movement of money, committed (or refused: a racing mover spent it, or
    reversed the same entry first: the unique index on ``reverses_id`` refuses the second)."""
    with contextlib.suppress(InsufficientFunds, IntegrityError):
        await _move(app, rng)


async def _move(app: FastAPI, rng: random.Random) -> None:
    async with app.state.sessionmaker() as session:
        member = rng.choice(MEMBERS)
        wallet = await player_wallet(session, member_id=member, currency=THB)
        amount = rng.randint(1, 50_000)
        action = rng.choice(("deposit", "deposit", "withdraw", "bonus", "game", "debit", "undo"))
        if action == "deposit":
            source = await account(session, *rng.choice(SOURCES))
            await transfer(
                session,
                source=source,
                destination=wallet,
                amount=amount,
                kind="deposit",
                actor="test",
            )
        elif action == "bonus":
            expense = await account(session, AccountKind.BONUS_EXPENSE)
            await transfer(
                session,
                source=expense,
                destination=wallet,
                amount=amount,
                kind=rng.choice(PROMOTION_KINDS),
                actor="test",
            )
        elif wallet.balance > 0:
            amount = rng.randint(1, wallet.balance)
            if action == "withdraw":
                target = await account(session, AccountKind.PAYOUT_CLEARING)
            elif action == "game":
                target = await account(session, AccountKind.PROVIDER_FLOAT, rng.choice("AB"))
            else:
                target = await account(session, AccountKind.MANUAL_ADJUSTMENTS)
            if action == "undo":
                last = (
                    await session.execute(
                        select(JournalEntry.id)
                        .where(JournalEntry.kind == "deposit", JournalEntry.reverses_id.is_(None))
                        .order_by(JournalEntry.id.desc())
                        .limit(1)
                    )
                ).scalar_one_or_none()
                already = (
                    await session.execute(
                        select(JournalEntry.id).where(JournalEntry.reverses_id == last)
                    )
                ).first()
                if last is not None and already is None:
                    # Refused (InsufficientFunds) when the member has spent it.
                    await reverse_entry(session, entry_id=last, actor="test", memo="undo")
            else:
                await transfer(
                    session,
                    source=wallet,
                    destination=target,
                    amount=amount,
                    kind="post",
                    actor="test",
                )
        await session.commit()


async def deposit(app: FastAPI, member: int, amount: int) -> None:
    async with app.state.sessionmaker() as session:
        source = await account(session, AccountKind.GATEWAY_CLEARING, "WW")
        wallet = await player_wallet(session, member_id=member, currency=THB)
        await transfer(
            session, source=source, destination=wallet, amount=amount, kind="deposit", actor="t"
        )
        await session.commit()


async def refreshed(app: FastAPI, **kw: object) -> int:
    async with app.state.sessionmaker() as session:
        done = await refresh(session, zone=BANGKOK, **kw)  # type: ignore[arg-type]
        await session.commit()
    return done


Summaries = tuple[dict[Any, list[int]], ...]


async def expected(app: FastAPI) -> Summaries:
    """The summaries computed from the raw postings, in Python."""
    async with app.state.sessionmaker() as session:
        rows = (
            await session.execute(
                select(
                    Posting.entry_id,
                    Posting.amount,
                    JournalEntry.created_at,
                    JournalEntry.kind,
                    LedgerAccount.kind,
                    LedgerAccount.owner,
                    LedgerAccount.currency,
                )
                .join(JournalEntry, JournalEntry.id == Posting.entry_id)
                .join(LedgerAccount, LedgerAccount.id == Posting.account_id)
            )
        ).all()
    ledger: dict[tuple[object, ...], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    entries: dict[int, list[tuple[int, AccountKind, str]]] = defaultdict(list)
    days: dict[int, date] = {}
    for entry, amount, at, entry_kind, kind, owner, currency in rows:
        day = at.astimezone(UTC).astimezone(BANGKOK).date()
        days[entry] = day
        entries[entry].append((amount, AccountKind(kind), owner))
        key = (
            day,
            currency,
            kind,
            "" if kind == AccountKind.PLAYER_WALLET else owner,
            entry_kind,
            False,
        )
        tally = ledger[key]
        if amount < 0:
            tally[0] += 1
            tally[1] -= amount
        else:
            tally[2] += 1
            tally[3] += amount
    members: dict[tuple[date, int, str], list[int]] = defaultdict(lambda: [0, 0])
    firsts: dict[tuple[object, ...], list[int]] = {}
    for entry, legs in entries.items():
        if not any(a < 0 and kind in DEPOSIT_SOURCES for a, kind, _ in legs):
            continue
        for amount, kind, owner in legs:
            if kind is AccountKind.PLAYER_WALLET and amount > 0:
                tally = members[(days[entry], int(owner), "THB")]
                tally[0] += 1
                tally[1] += amount
    for day, member, _ in sorted(members):
        firsts.setdefault((member, "THB"), [day.toordinal()])
    return ledger, members, firsts


async def summarised(app: FastAPI) -> Summaries:
    async with app.state.sessionmaker() as session:
        ledger: dict[Any, list[int]] = {
            (r.day, r.currency, r.account_kind, r.owner, r.entry_kind, r.marked): [
                r.out_count,
                r.out_sum,
                r.in_count,
                r.in_sum,
            ]
            for r in (await session.execute(select(LedgerDay))).scalars()
        }
        members: dict[Any, list[int]] = {
            (r.day, r.member_id, r.currency): [r.deposit_count, r.deposit_sum]
            for r in (await session.execute(select(MemberDay))).scalars()
        }
        firsts: dict[Any, list[int]] = {
            (r.member_id, r.currency): [r.day.toordinal()]
            for r in (await session.execute(select(MemberFirstDeposit))).scalars()
        }
    return ledger, members, firsts


@pytest.mark.parametrize("seed", [1, 2])
async def test_summaries_equal_the_ledger(app: FastAPI, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(60):
        await one_move(app, rng)
        if rng.random() < 0.3:
            # Hours at a time, so moves fall on both sides of Bangkok's midnight (17:00 UTC).
            clock.advance(timedelta(hours=rng.randint(1, 20), minutes=rng.randint(0, 59)))
        if rng.random() < 0.2:
            await refreshed(app, max_steps=rng.randint(1, 3))
    await refreshed(app)
    assert await summarised(app) == await expected(app)
    ledger, members, _ = await summarised(app)
    assert len({key[0] for key in ledger}) >= 3, "the moves span several days"
    assert members
    # Again: nothing new, nothing changes.
    assert await refreshed(app) == 0
    assert await summarised(app) == await expected(app)


async def test_racing_refreshers_count_each_entry_once(app: FastAPI) -> None:
    rng = random.Random(7)

    async def mover() -> None:
        for _ in range(15):
            await one_move(app, rng)

    await asyncio.gather(mover(), *(refreshed(app) for _ in range(4)), mover())
    await asyncio.gather(*(refreshed(app) for _ in range(3)))
    assert await summarised(app) == await expected(app)


async def test_an_entry_committed_late_is_counted_once(app: FastAPI, database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite commits one writer at a time: ids cannot commit out of order")
    async with app.state.sessionmaker() as slow:
        source = await account(slow, AccountKind.BANK_CLEARING)
        wallet = await player_wallet(slow, member_id=101, currency=THB)
        await slow.commit()
        # Entry n is written but not committed; entry n+1 commits first.
        late = await transfer(
            slow, source=source, destination=wallet, amount=700, kind="deposit", actor="test"
        )
        await deposit(app, 104, 300)  # another member: no lock shared with the open one
        await refreshed(app)
        async with app.state.sessionmaker() as session:
            gaps = list((await session.execute(select(WatermarkGap.entry_id))).scalars())
            mark = await session.get(Watermark, "journal")
        assert gaps == [late.id]
        assert mark is not None
        assert mark.last_id > late.id
        await slow.commit()
    await refreshed(app)
    await refreshed(app)
    assert await summarised(app) == await expected(app)
    async with app.state.sessionmaker() as session:
        assert list((await session.execute(select(WatermarkGap.entry_id))).scalars()) == []


async def test_a_rolled_back_id_is_forgotten_after_a_while(app: FastAPI, database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite reuses a rolled-back id: no gap")
    async with app.state.sessionmaker() as lost:
        source = await account(lost, AccountKind.BANK_CLEARING)
        wallet = await player_wallet(lost, member_id=102, currency=THB)
        await lost.commit()
        await transfer(
            lost, source=source, destination=wallet, amount=5, kind="deposit", actor="test"
        )
        await deposit(app, 103, 300)
        await lost.rollback()
    await refreshed(app)
    async with app.state.sessionmaker() as session:
        assert len(list((await session.execute(select(WatermarkGap.entry_id))).scalars())) == 1
    clock.advance(timedelta(minutes=11))
    await refreshed(app)
    async with app.state.sessionmaker() as session:
        assert list((await session.execute(select(WatermarkGap.entry_id))).scalars()) == []
    assert await summarised(app) == await expected(app)


async def test_a_new_time_zone_cuts_the_days_again(app: FastAPI) -> None:
    rng = random.Random(5)
    for _ in range(10):
        await one_move(app, rng)
        clock.advance(timedelta(hours=5))
    async with app.state.sessionmaker() as session:
        await refresh(session, zone=ZoneInfo("UTC"))
        await session.commit()
    await refreshed(app)  # Bangkok again: rebuilt, not added twice
    assert await summarised(app) == await expected(app)
