"""The ledger's rules on a real database: balanced entries, no negative player balance,
holds that resolve once, reversals, and the database's own guards."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import FastAPI
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.kit.states import IllegalTransition, StatusChange
from pao.ledger import service as ledger
from pao.ledger.exceptions import AlreadyReversed, InsufficientFunds, UnbalancedEntry
from pao.ledger.models import AccountKind, HoldStatus, LedgerAccount, Posting

# Also on SQLite (tests/databases.py): the ledger's locking and steps.
pytestmark = pytest.mark.sqlite

THB = Currency.THB


async def fund(session: AsyncSession, member_id: int, amount: int) -> LedgerAccount:
    wallet = await ledger.player_wallet(session, member_id=member_id, currency=THB)
    bank = await ledger.get_or_open_account(session, kind=AccountKind.BANK_CLEARING, currency=THB)
    await ledger.transfer(
        session, source=bank, destination=wallet, amount=amount, kind="deposit", actor="test"
    )
    return wallet


async def test_transfer_moves_balances_and_books_balance(session: AsyncSession) -> None:
    wallet = await fund(session, 1, 1000)
    await session.commit()
    assert wallet.balance == 1000
    report = await ledger.check_books(session)
    assert report.balanced, report


async def test_unbalanced_or_empty_entries_are_programming_errors(session: AsyncSession) -> None:
    wallet = await ledger.player_wallet(session, member_id=1, currency=THB)
    with pytest.raises(UnbalancedEntry):
        await ledger.post_entry(session, kind="x", actor="t", legs=[ledger.Leg(wallet, 5)])
    with pytest.raises(UnbalancedEntry):
        await ledger.post_entry(session, kind="x", actor="t", legs=[])
    lak = await ledger.get_or_open_account(
        session, kind=AccountKind.BANK_CLEARING, currency=Currency.LAK
    )
    with pytest.raises(UnbalancedEntry):  # sums to zero in total but not per currency
        await ledger.post_entry(
            session, kind="x", actor="t", legs=[ledger.Leg(wallet, 5), ledger.Leg(lak, -5)]
        )


async def test_player_balance_never_goes_negative(session: AsyncSession) -> None:
    wallet = await fund(session, 1, 500)
    await session.commit()
    wallet_id = wallet.id
    payout = await ledger.get_or_open_account(
        session, kind=AccountKind.PAYOUT_CLEARING, currency=THB
    )
    with pytest.raises(InsufficientFunds):
        await ledger.transfer(
            session, source=wallet, destination=payout, amount=501, kind="x", actor="t"
        )
    await session.rollback()
    refreshed = (
        await session.execute(
            select(LedgerAccount)
            .where(LedgerAccount.id == wallet_id)
            .execution_options(populate_existing=True)
        )
    ).scalar_one()
    assert refreshed.balance == 500


async def test_hold_posts_once(session: AsyncSession) -> None:
    wallet = await fund(session, 1, 1000)
    hold = await ledger.place_hold(
        session, account=wallet, amount=400, purpose="withdrawal", actor="t"
    )
    assert wallet.balance == 600
    payout = await ledger.get_or_open_account(
        session, kind=AccountKind.PAYOUT_CLEARING, currency=THB
    )
    await ledger.post_hold(session, hold_id=hold.id, destination=payout, actor="t")
    assert hold.status == HoldStatus.POSTED
    assert payout.balance == 400
    with pytest.raises(IllegalTransition):
        await ledger.void_hold(session, hold_id=hold.id, actor="t")
    with pytest.raises(IllegalTransition):
        await ledger.post_hold(session, hold_id=hold.id, destination=payout, actor="t")
    await session.commit()
    assert wallet.balance == 600
    changes = (await session.execute(select(StatusChange))).scalars().all()
    assert [(c.from_status, c.to_status) for c in changes] == [("PENDING", "POSTED")]
    assert (await ledger.check_books(session)).balanced


async def test_void_returns_the_money(session: AsyncSession) -> None:
    wallet = await fund(session, 1, 1000)
    hold = await ledger.place_hold(session, account=wallet, amount=1000, purpose="game", actor="t")
    assert wallet.balance == 0
    with pytest.raises(InsufficientFunds):
        await ledger.place_hold(session, account=wallet, amount=1, purpose="game", actor="t")
    await ledger.void_hold(session, hold_id=hold.id, actor="t", memo="provider refused")
    await session.commit()
    assert wallet.balance == 1000
    assert (await ledger.check_books(session)).balanced


async def test_reversal_is_a_new_entry(session: AsyncSession) -> None:
    wallet = await ledger.player_wallet(session, member_id=1, currency=THB)
    bank = await ledger.get_or_open_account(session, kind=AccountKind.BANK_CLEARING, currency=THB)
    entry = await ledger.transfer(
        session, source=bank, destination=wallet, amount=300, kind="deposit", actor="t"
    )
    reversal = await ledger.reverse_entry(session, entry_id=entry.id, actor="ops", memo="wrong")
    await session.commit()
    assert wallet.balance == 0
    assert reversal.reverses_id == entry.id
    await ledger.transfer(
        session, source=bank, destination=wallet, amount=300, kind="deposit", actor="t"
    )
    with pytest.raises(AlreadyReversed):  # an entry is reversed at most once
        await ledger.reverse_entry(session, entry_id=entry.id, actor="ops", memo="again")
    await session.commit()
    assert wallet.balance == 300
    assert (await ledger.check_books(session)).balanced


async def test_postings_are_append_only(session: AsyncSession) -> None:
    await fund(session, 1, 100)
    await session.commit()
    posting = (await session.execute(select(Posting))).scalars().first()
    assert posting is not None
    with pytest.raises(DBAPIError):
        await session.execute(
            text("UPDATE postings SET amount = 1 WHERE id = :i"), {"i": posting.id}
        )
    await session.rollback()
    with pytest.raises(DBAPIError):
        await session.execute(text("DELETE FROM journal_entries"))
    await session.rollback()


async def test_database_refuses_an_unbalanced_entry(
    session: AsyncSession, database_url: str
) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("the deferred balance trigger is PostgreSQL's")
    wallet = await ledger.player_wallet(session, member_id=1, currency=THB)
    await session.commit()
    await session.execute(
        text(
            "INSERT INTO journal_entries (kind, actor, memo, created_at) "
            "VALUES ('forged', 'x', '', now())"
        )
    )
    entry_id = (await session.execute(text("SELECT max(id) FROM journal_entries"))).scalar()
    await session.execute(
        text(
            "INSERT INTO postings (entry_id, account_id, currency, amount) "
            "VALUES (:e, :a, 'THB', 100)"
        ),
        {"e": entry_id, "a": wallet.id},
    )
    with pytest.raises(DBAPIError, match="does not balance"):
        await session.commit()


async def test_concurrent_holds_never_overdraw(app: FastAPI) -> None:
    """50 writers race for one wallet of 10.00; each wants 9.00: exactly one wins."""
    async with app.state.sessionmaker() as s:
        wallet_id = (await fund(s, 7, 1000)).id
        await s.commit()

    async def attempt() -> bool:
        async with app.state.sessionmaker() as s:
            wallet = await s.get(LedgerAccount, wallet_id)
            assert wallet is not None
            try:
                await ledger.place_hold(
                    s, account=wallet, amount=900, purpose="withdrawal", actor="t"
                )
            except InsufficientFunds:
                await s.rollback()
                return False
            await s.commit()
            return True

    results = await asyncio.gather(*(attempt() for _ in range(50)))
    assert results.count(True) == 1
    async with app.state.sessionmaker() as s:
        wallet = await s.get(LedgerAccount, wallet_id)
        assert wallet is not None
        assert wallet.balance == 100
        assert (await ledger.check_books(s)).balanced


async def test_shared_accounts_split_by_member_and_sum_exactly(app: FastAPI) -> None:
    """Deposits of many members at once go through the shard rows of one clearing account
    and one provider float; the books stay exact and every reader sums the shards."""
    from pao.ledger.figures import balances
    from pao.ledger.models import SHARDS

    members = list(range(1, SHARDS + 6))  # more members than shards: some rows shared

    async def deposit_and_play(member_id: int) -> None:
        async with app.state.sessionmaker() as session:
            wallet = await ledger.player_wallet(session, member_id=member_id, currency=THB)
            bank = await ledger.get_or_open_account(
                session, kind=AccountKind.BANK_CLEARING, currency=THB, member_id=member_id
            )
            await ledger.transfer(
                session, source=bank, destination=wallet, amount=1000, kind="deposit", actor="t"
            )
            float_account = await ledger.get_or_open_account(
                session,
                kind=AccountKind.PROVIDER_FLOAT,
                currency=THB,
                owner="DEMO",
                member_id=member_id,
            )
            await ledger.transfer(
                session,
                source=wallet,
                destination=float_account,
                amount=300,
                kind="game",
                actor="t",
            )
            await session.commit()

    for batch in range(0, len(members), 8):  # concurrent, a few at a time (SQLite: one writer)
        await asyncio.gather(*(deposit_and_play(m) for m in members[batch : batch + 8]))

    async with app.state.sessionmaker() as session:
        rows = (
            await session.execute(
                select(LedgerAccount.shard).where(LedgerAccount.kind == AccountKind.BANK_CLEARING)
            )
        ).scalars()
        assert sorted(rows) == list(range(SHARDS))  # one row per shard, no more
        assert await ledger.account_balance(
            session, kind=AccountKind.BANK_CLEARING, currency=THB
        ) == -1000 * len(members)
        assert await balances(session, kind=AccountKind.PROVIDER_FLOAT, currency=THB) == [
            ("DEMO", 300 * len(members))
        ]
        report = await ledger.check_books(session)
        assert report.balanced, report


async def test_credit_wallet_opens_then_locks_both_rows_in_one_statement(app: FastAPI) -> None:
    """A deposit credit from an operator account: the first opens the member's wallet and
    the clearing shard row; the next finds and locks both with its one statement (ascending
    id; on PostgreSQL the whole credit is that statement), and the books are exact after both.
    Another gateway's clearing row is not touched."""
    from pao.core.executor import recorded
    from pao.ledger.models import SHARDS

    member_id = SHARDS + 3  # shard 3 of the clearing account
    async with app.state.sessionmaker() as session:
        await ledger.credit_wallet(
            session,
            source_kind=AccountKind.GATEWAY_CLEARING,
            source_owner="OTHER",
            member_id=member_id,
            currency=THB,
            amount=1,
            kind="deposit",
            actor="t",
        )
        first = await ledger.credit_wallet(
            session,
            source_kind=AccountKind.GATEWAY_CLEARING,
            source_owner="WW",
            member_id=member_id,
            currency=THB,
            amount=700,
            kind="deposit",
            actor="t",
        )
        await session.commit()
    async with app.state.sessionmaker() as session:
        with recorded(app.state.engine) as statements:
            second = await ledger.credit_wallet(
                session,
                source_kind=AccountKind.GATEWAY_CLEARING,
                source_owner="WW",
                member_id=member_id,
                currency=THB,
                amount=300,
                kind="deposit",
                actor="t",
                memo="second",
            )
        await session.commit()
        reads = [s for s in statements if s.startswith("SELECT")]
        assert len(reads) == 1, statements
        if app.state.engine.dialect.name == "postgresql":  # the whole credit in one (ADR 0018)
            assert statements == reads
            assert "FROM pao_credit_wallet(" in reads[0]
        else:
            assert "ORDER BY ledger_accounts.id" in reads[0]
        postings = (
            (await session.execute(select(Posting).where(Posting.entry_id == second.id)))
            .scalars()
            .all()
        )
        accounts = {
            a.id: a
            for a in (
                await session.execute(
                    select(LedgerAccount).where(
                        LedgerAccount.id.in_({p.account_id for p in postings})
                    )
                )
            ).scalars()
        }
        legs = sorted(
            (
                accounts[p.account_id].kind,
                accounts[p.account_id].owner,
                accounts[p.account_id].shard,
                p.amount,
            )
            for p in postings
        )
        assert legs == [
            (AccountKind.GATEWAY_CLEARING, "WW", 3, -300),
            (AccountKind.PLAYER_WALLET, str(member_id), 0, 300),
        ]
        assert first.id < second.id
        assert (
            await ledger.account_balance(
                session, kind=AccountKind.PLAYER_WALLET, currency=THB, owner=str(member_id)
            )
            == 1001
        )
        assert (
            await ledger.account_balance(
                session, kind=AccountKind.GATEWAY_CLEARING, currency=THB, owner="WW"
            )
            == -1000
        )
        assert (
            await ledger.account_balance(
                session, kind=AccountKind.GATEWAY_CLEARING, currency=THB, owner="OTHER"
            )
            == -1
        )
        report = await ledger.check_books(session)
        assert report.balanced, report


async def test_credit_wallet_refuses_a_non_positive_amount(session: AsyncSession) -> None:
    with pytest.raises(UnbalancedEntry):
        await ledger.credit_wallet(
            session,
            source_kind=AccountKind.BANK_CLEARING,
            member_id=1,
            currency=THB,
            amount=0,
            kind="deposit",
            actor="t",
        )
