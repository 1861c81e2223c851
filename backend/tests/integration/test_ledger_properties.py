"""Hypothesis stateful test of the ledger invariants (blnk's invariant fuzz, in Python).

Random sequences of deposits, holds, posts, voids, member-to-member moves and reversals; after
every step: the books balance, no player balance is negative, balances equal a simple model,
and a refused operation leaves every balance byte-identical.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from pao.core.db import create_engine
from pao.core.settings import Settings
from pao.kit.money import Currency
from pao.kit.states import IllegalTransition
from pao.ledger import service as ledger
from pao.ledger.exceptions import AlreadyReversed, InsufficientFunds
from pao.ledger.models import AccountKind, LedgerAccount

from ..conftest import DATABASES, empty_postgres

# Also on SQLite (tests/databases.py): the ledger's invariants on the steps.
pytestmark = pytest.mark.sqlite

MEMBERS = st.integers(min_value=1, max_value=3)
AMOUNTS = st.integers(min_value=1, max_value=5_000)
REFUSALS = (InsufficientFunds, IllegalTransition, AlreadyReversed)


class LedgerMachine(RuleBasedStateMachine):
    url: str
    loop: asyncio.AbstractEventLoop
    engine: AsyncEngine

    def __init__(self) -> None:
        super().__init__()
        self.model: dict[int, int] = {1: 0, 2: 0, 3: 0}
        self.holds: list[tuple[int, int, int]] = []  # (hold id, member, amount)
        self.deposits: list[tuple[int, int, int]] = []  # (entry id, member, amount)
        self.factory = async_sessionmaker(self.engine, expire_on_commit=False)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    @initialize()
    def empty_books(self) -> None:
        self.run(self._reset())

    def teardown(self) -> None:
        # Its random entries ("move" only when a move happened to succeed) are not money paths:
        # left behind, the SQLite coverage check (tests/databases.py) would read them on one
        # database and not the other, and fail by chance.
        self.run(self._reset())

    async def _reset(self) -> None:
        async with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                await empty_postgres(conn)
            else:
                # Append-only tables: drop the guards just for the reset.
                for trig in ("postings_no_delete", "journal_entries_no_delete"):
                    await conn.execute(text(f"DROP TRIGGER IF EXISTS {trig}"))
                for table in (
                    "ledger_holds",
                    "status_changes",
                    "postings",
                    "journal_entries",
                    "ledger_accounts",
                ):
                    await conn.execute(text(f"DELETE FROM {table}"))

    async def _wallet(self, s: AsyncSession, member: int) -> LedgerAccount:
        return await ledger.player_wallet(s, member_id=member, currency=Currency.THB)

    async def _balances(self) -> dict[tuple[str, str], int]:
        async with self.factory() as s:
            rows = (await s.execute(select(LedgerAccount))).scalars()
            return {(a.kind, a.owner): a.balance for a in rows}

    def attempt(self, operation: Any) -> bool:
        """Run one operation in its own transaction; on refusal assert nothing changed."""
        before = self.run(self._balances())

        async def go() -> Any:
            async with self.factory() as s:
                try:
                    result = await operation(s)
                except REFUSALS:
                    await s.rollback()
                    return False
                await s.commit()
                return result if result is not None else True

        result = self.run(go())
        if result is False:
            assert self.run(self._balances()) == before
        return bool(result) if not isinstance(result, tuple) else True

    @rule(member=MEMBERS, amount=AMOUNTS)
    def deposit(self, member: int, amount: int) -> None:
        async def op(s: AsyncSession) -> tuple[int]:
            bank = await ledger.get_or_open_account(
                s, kind=AccountKind.BANK_CLEARING, currency=Currency.THB
            )
            entry = await ledger.transfer(
                s,
                source=bank,
                destination=await self._wallet(s, member),
                amount=amount,
                kind="deposit",
                actor="fuzz",
            )
            self.deposits.append((entry.id, member, amount))
            return (entry.id,)

        assert self.attempt(op)
        self.model[member] += amount

    @rule(member=MEMBERS, amount=AMOUNTS)
    def hold(self, member: int, amount: int) -> None:
        async def op(s: AsyncSession) -> tuple[int]:
            h = await ledger.place_hold(
                s,
                account=await self._wallet(s, member),
                amount=amount,
                purpose="withdrawal",
                actor="fuzz",
            )
            self.holds.append((h.id, member, amount))
            return (h.id,)

        ok = self.attempt(op)
        assert ok == (self.model[member] >= amount)
        if ok:
            self.model[member] -= amount

    @rule(index=st.integers(min_value=0, max_value=50), post=st.booleans())
    def resolve(self, index: int, post: bool) -> None:
        if not self.holds:
            return
        hold_id, member, amount = self.holds[index % len(self.holds)]

        async def op(s: AsyncSession) -> None:
            if post:
                payout = await ledger.get_or_open_account(
                    s, kind=AccountKind.PAYOUT_CLEARING, currency=Currency.THB
                )
                await ledger.post_hold(s, hold_id=hold_id, destination=payout, actor="fuzz")
            else:
                await ledger.void_hold(s, hold_id=hold_id, actor="fuzz")

        if self.attempt(op) and not post:
            self.model[member] += amount

    @rule(source=MEMBERS, destination=MEMBERS, amount=AMOUNTS)
    def move(self, source: int, destination: int, amount: int) -> None:
        if source == destination:
            return

        async def op(s: AsyncSession) -> None:
            await ledger.transfer(
                s,
                source=await self._wallet(s, source),
                destination=await self._wallet(s, destination),
                amount=amount,
                kind="move",
                actor="fuzz",
            )

        ok = self.attempt(op)
        assert ok == (self.model[source] >= amount)
        if ok:
            self.model[source] -= amount
            self.model[destination] += amount

    @rule(index=st.integers(min_value=0, max_value=50))
    def reverse_deposit(self, index: int) -> None:
        if not self.deposits:
            return
        entry_id, member, amount = self.deposits[index % len(self.deposits)]

        async def op(s: AsyncSession) -> None:
            await ledger.reverse_entry(s, entry_id=entry_id, actor="fuzz", memo="fuzz")

        if self.attempt(op):
            self.model[member] -= amount

    @invariant()
    def books_balance_and_match_the_model(self) -> None:
        async def check() -> None:
            async with self.factory() as s:
                report = await ledger.check_books(s)
                assert report.balanced, report
                for member, expected in self.model.items():
                    wallet = (
                        await s.execute(
                            select(LedgerAccount).where(
                                LedgerAccount.kind == AccountKind.PLAYER_WALLET,
                                LedgerAccount.owner == str(member),
                            )
                        )
                    ).scalar_one_or_none()
                    assert (wallet.balance if wallet else 0) == expected

        self.run(check())


@pytest.mark.parametrize("database", DATABASES)
def test_ledger_invariants(database: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    if database == "sqlite":
        db = tmp_path / "fuzz.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), db)
        url = f"sqlite+aiosqlite:///{db}"
    else:
        url = request.getfixturevalue("pg_url")
    loop = asyncio.new_event_loop()
    engine = create_engine(Settings(database_url=url, data_dir=tmp_path))
    LedgerMachine.loop, LedgerMachine.engine = loop, engine
    try:
        test = LedgerMachine.TestCase
        test.settings = settings(
            max_examples=25,
            stateful_step_count=25,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        test().runTest()
    finally:
        loop.run_until_complete(engine.dispose())
        loop.close()
