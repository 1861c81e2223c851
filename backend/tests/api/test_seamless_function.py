"""A seamless callback in one statement on PostgreSQL (``pao_seamless_call``, ADR 0033) holds
to the core's steps: every outcome (new, replay, duplicate, win, rollback, rollback before its
bet, a late bet, a win on a rolled-back bet, a rollback of a settled bet, not enough money,
wrong currency, unknown bet, unknown member, a disabled member, free spins) gives the same
answers, rows and balances either way; a refusal writes nothing; what the function leaves to
the steps (a first movement, an excluded member, a member with limits) is done by them.

The Hub88 and Common Flow suites run through the function on PostgreSQL already; these pin it
to the steps, which SQLite and the cases above take."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import astuple, dataclass
from datetime import timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select, text, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from pao.games.seamless import core, function
from pao.games.seamless.models import TxnKind
from pao.identity.models import Member, MemberStatus
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, LedgerAccount
from pao.ledger.service import check_books
from tests.conftest import is_postgres
from tests.withdrawal_helpers import member_with_funds
from tests.written_rows import high_marks, rows_after

PROVIDER = "hub88"
WRITTEN = ("journal_entries", "postings", "statements", "seamless_transactions", "seamless_rounds")


@pytest.fixture(autouse=True)
def _postgres_only(database_url: str, app: FastAPI, session: AsyncSession) -> None:
    if not is_postgres(database_url):
        pytest.skip("the function is PostgreSQL's; SQLite takes the steps")
    session.info["app_state"] = app.state


Call = tuple[TxnKind, dict[str, Any]]


@dataclass(frozen=True)
class Player:
    """A member's id and currency, read once (a commit expires the ORM object's attributes)."""

    id: int
    currency: Currency


def scenario() -> list[Call]:
    """Every outcome, in an order that reaches each (ids relative to the member)."""
    bet, win, rollback = TxnKind.BET, TxnKind.WIN, TxnKind.ROLLBACK
    return [
        (bet, {"txn_id": "b1", "round_id": "r1", "amount": 100_00}),
        (bet, {"txn_id": "b1", "round_id": "r1", "amount": 100_00}),  # replay
        (bet, {"txn_id": "b1", "round_id": "r1", "amount": 99_00}),  # duplicate
        (win, {"txn_id": "w1", "round_id": "r1", "amount": 150_00, "reference_id": "b1"}),
        (win, {"txn_id": "w1", "round_id": "r1", "amount": 150_00, "reference_id": "b1"}),
        (rollback, {"txn_id": "x1", "round_id": "r1", "reference_id": "b1"}),  # settled
        (bet, {"txn_id": "b2", "round_id": "r2", "amount": 50_00}),
        (rollback, {"txn_id": "x2", "round_id": "r2", "reference_id": "b2"}),
        (rollback, {"txn_id": "x2", "round_id": "r2", "reference_id": "b2"}),  # replay
        (win, {"txn_id": "w2", "round_id": "r2", "amount": 10_00, "reference_id": "b2"}),
        (rollback, {"txn_id": "x3", "round_id": "r1", "reference_id": "b3", "round_closed": True}),
        (bet, {"txn_id": "b3", "round_id": "r1", "amount": 10_00}),  # rolled back before
        (rollback, {"txn_id": "x4", "round_id": "r4", "reference_id": "w1"}),  # not a bet
        (rollback, {"txn_id": "x5", "round_id": "r4"}),  # names no bet
        (win, {"txn_id": "w9", "round_id": "r4", "amount": 10_00, "reference_id": "nope"}),
        (bet, {"txn_id": "b4", "round_id": "r4", "amount": 1_000_000_00}),  # not enough
        (bet, {"txn_id": "b5", "round_id": "r5", "amount": 10_00, "currency": Currency.LAK}),
        (win, {"txn_id": "w5", "round_id": "r5", "amount": 10_00, "currency": Currency.LAK}),
        (bet, {"txn_id": "b6", "round_id": "r6", "amount": 0}),  # a free spin
        (win, {"txn_id": "w6", "round_id": "r6", "amount": 0, "reference_id": "b6"}),
        (bet, {"txn_id": "b7", "round_id": "r7", "amount": 30_00, "round_closed": True}),
        (win, {"txn_id": "w7", "round_id": "r7", "amount": 5_00, "reference_id": "b7"}),
    ]


def move_of(member: Player, fields: dict[str, Any], tag: str) -> core.Move:
    values = {"currency": member.currency, "game_code": "slot", **fields}
    values["txn_id"] = f"{tag}-{values['txn_id']}"
    values["round_id"] = f"{tag}-{values['round_id']}"
    if values.get("reference_id"):
        values["reference_id"] = f"{tag}-{values['reference_id']}"
    return core.Move(provider=PROVIDER, member_id=member.id, **values)


async def play(session: AsyncSession, kind: TxnKind, move: core.Move) -> core.Outcome:
    """One call, as the dialects make it (``core.play``, on the sessions of ``session``'s
    app)."""
    await session.commit()  # the test's own reads see what the call commits
    state = session.info["app_state"]
    return await core.play(state.sessionmaker, state.engine, kind, move)


async def funded(session: AsyncSession, funds: int) -> Player:
    member = await member_with_funds(session, funds)
    await session.commit()
    return Player(member.id, member.currency)


async def opened_member(session: AsyncSession, funds: int) -> Player:
    """A funded member whose wallet and clearing shard are open (a first movement's steps
    open them): a free spin's bet, committed."""
    member = await funded(session, funds)
    opening = core.Move(PROVIDER, f"open-{member.id}", member.id, member.currency, "open", "g")
    assert (await play(session, TxnKind.BET, opening)).ok
    return member


def normalised(written: dict[str, list[dict[str, Any]]], member: Player) -> dict[str, Any]:
    """The rows with their own ids replaced by their place, the member's ids and tag by names,
    the times dropped, so that two members' calls compare."""
    own = {
        table: {row["id"]: f"{table}[{n}]" for n, row in enumerate(written[table])}
        for table in ("journal_entries", "seamless_transactions")
    }
    out: dict[str, Any] = {}
    for table, rows in written.items():
        out[table] = []
        for row in rows:
            row = {k: v for k, v in row.items() if k not in ("id", "created_at", "opened_at")}
            if row.get("entry_id") is not None:
                row["entry_id"] = own["journal_entries"][row["entry_id"]]
            if table == "postings":
                row["account_id"] = "account"  # compared through the balances below
            if table == "statements":
                row["ref_id"] = own["seamless_transactions"][int(row["ref_id"])]
            if "member_id" in row:
                row["member_id"] = row["member_id"] == member.id
            if "closed_at" in row:
                row["closed_at"] = row["closed_at"] is not None
            for column, value in row.items():
                if isinstance(value, str):
                    row[column] = value.replace(f"m{member.id}-", "<tag>-")
            out[table].append(row)
    return out


async def balances(session: AsyncSession, member: Player) -> dict[str, int]:
    rows = await session.execute(
        select(LedgerAccount.kind, LedgerAccount.balance).where(
            LedgerAccount.owner == str(member.id)
        )
    )
    return {kind: balance for kind, balance in rows}


async def run_scenario(
    session: AsyncSession, member: Player, calls: list[Call]
) -> tuple[list[tuple[Any, ...]], dict[str, Any], dict[str, int]]:
    marks = await high_marks(session, WRITTEN)
    answers = []
    for kind, fields in calls:
        outcome = await play(session, kind, move_of(member, fields, f"m{member.id}"))
        answers.append(astuple(outcome))
    written = normalised(await rows_after(session, marks), member)
    return answers, written, await balances(session, member)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Callable[[], list[bool]]:
    """Each function call's verdict: True when it did the call, False when it left it to the
    steps (so that a test sees the function did the work it compares)."""
    verdicts: list[bool] = []
    real = function.call_alone

    async def call_alone(engine: AsyncEngine, kind: TxnKind, move: core.Move) -> Any:
        outcome = await real(engine, kind, move)
        verdicts.append(outcome is not None)
        return outcome

    monkeypatch.setattr(function, "call_alone", call_alone)
    return lambda: verdicts


async def test_every_outcome_answers_and_writes_as_the_steps_do(
    session: AsyncSession, monkeypatch: pytest.MonkeyPatch, counted: Callable[[], list[bool]]
) -> None:
    through_function = await opened_member(session, 500_00)
    through_steps = await opened_member(session, 500_00)
    stranger = core.Move(PROVIDER, "x", 10**12, Currency.THB, "r", "g", amount=1)

    answers_one, rows_one, balances_one = await run_scenario(session, through_function, scenario())
    unknown_one = await play(session, TxnKind.BET, stranger)
    # The openings' first movements took the steps; the function did every call after them.
    assert counted() == [False, False] + [True] * (len(scenario()) + 1)
    monkeypatch.setattr(function, "on_postgres", lambda _session: False)
    answers_steps, rows_steps, balances_steps = await run_scenario(
        session, through_steps, scenario()
    )
    unknown_steps = await play(session, TxnKind.BET, stranger)

    assert [answer[0] for answer in answers_one] == [
        "ok", "ok", "duplicate", "ok", "ok", "settled", "ok", "ok", "ok", "rolled_back",
        "ok", "rolled_back", "unknown_bet", "unknown_bet", "unknown_bet", "not_enough_money",
        "wrong_currency", "wrong_currency", "ok", "ok", "ok", "ok",
    ]  # fmt: skip
    assert answers_one == answers_steps
    assert unknown_one == unknown_steps
    assert unknown_one.status is core.Status.UNKNOWN_USER
    assert rows_one == rows_steps
    assert [len(rows) for rows in rows_one.values()] == [6, 12, 6, 9, 4]
    # 500 − 100 + 150 − 50 + 50 − 30 + 5
    assert balances_one == balances_steps
    assert balances_one[AccountKind.PLAYER_WALLET] == 525_00
    await check_books(session)


async def test_a_disabled_member_bets_nothing_but_wins_and_rollbacks_settle(
    session: AsyncSession, counted: Callable[[], list[bool]]
) -> None:
    member = await opened_member(session, 100_00)
    tag = f"m{member.id}"
    placed = move_of(member, {"txn_id": "b1", "round_id": "r1", "amount": 40_00}, tag)
    assert (await play(session, TxnKind.BET, placed)).ok
    await session.execute(
        update(Member).where(Member.id == member.id).values(status=MemberStatus.INACTIVE)
    )
    await session.commit()
    marks = await high_marks(session, WRITTEN)
    refused = move_of(member, {"txn_id": "b2", "round_id": "r2", "amount": 1_00}, tag)
    outcome = await play(session, TxnKind.BET, refused)
    assert (outcome.status, outcome.balance) == (core.Status.USER_DISABLED, 60_00)
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    won = {"txn_id": "w1", "round_id": "r1", "amount": 70_00, "reference_id": "b1"}
    assert (await play(session, TxnKind.WIN, move_of(member, won, tag))).balance == 130_00
    assert counted() == [False, True, True, True]  # the opening took the steps
    await check_books(session)


async def test_what_the_function_leaves_to_the_steps_is_done_by_them(
    session: AsyncSession, counted: Callable[[], list[bool]]
) -> None:
    # A first movement: the accounts are opened by the steps.
    member = await funded(session, 100_00)
    tag = f"m{member.id}"
    first = move_of(member, {"txn_id": "b1", "round_id": "r1", "amount": 10_00}, tag)
    assert (await play(session, TxnKind.BET, first)).balance == 90_00
    assert counted() == [False]
    # Self-excluded: the steps refuse it and keep the record of the refusal.
    await session.execute(
        update(Member)
        .where(Member.id == member.id)
        .values(excluded_until=utcnow() + timedelta(days=1))
    )
    await session.commit()
    excluded = move_of(member, {"txn_id": "b2", "round_id": "r2", "amount": 10_00}, tag)
    outcome = await play(session, TxnKind.BET, excluded)
    assert (outcome.status, outcome.kept) == (core.Status.USER_DISABLED, True)
    # A win is never refused for it, and the function pays it.
    won = {"txn_id": "w1", "round_id": "r1", "amount": 5_00, "reference_id": "b1"}
    assert (await play(session, TxnKind.WIN, move_of(member, won, tag))).balance == 95_00
    assert counted() == [False, False, True]
    await check_books(session)


async def test_two_members_racing_on_one_new_id_move_money_once(
    session: AsyncSession, counted: Callable[[], list[bool]]
) -> None:
    """Each under its own member's lock finds no row; the unique index holds the second
    statement until the first commits, then refuses it whole; it runs again and meets the
    first's id: a duplicate, nothing moved for the second member."""
    first, second = await opened_member(session, 50_00), await opened_member(session, 50_00)
    fields = {"txn_id": "same", "round_id": "r1", "amount": 10_00}
    state = session.info["app_state"]
    async with state.sessionmaker() as first_call:
        # The first member's call, written and not yet committed.
        taken = await function.call(first_call, TxnKind.BET, move_of(first, fields, "race"))
        assert taken is not None
        assert taken.ok
        racing = asyncio.create_task(
            core.play(
                state.sessionmaker,
                state.engine,
                TxnKind.BET,
                move_of(second, fields, "race"),
            )
        )
        await session.commit()
        for _ in range(200):  # until the second call waits on the first's index entry
            waiting = await session.scalar(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND datname = current_database()"
                )
            )
            await session.commit()
            if waiting:
                break
            await asyncio.sleep(0.02)
        assert waiting
        await first_call.commit()
    outcome = await racing
    assert outcome.status is core.Status.DUPLICATE
    assert outcome.replayed
    assert (await balances(session, first))[AccountKind.PLAYER_WALLET] == 40_00
    assert (await balances(session, second))[AccountKind.PLAYER_WALLET] == 50_00
    assert counted() == [False, False, True]  # the openings took the steps; the race did not
    await check_books(session)
