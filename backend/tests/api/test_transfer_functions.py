"""The wallet → game transfer in one statement per transaction on PostgreSQL
(``pao_begin_transfer_in``, ``pao_settle_transfer``; ADR 0018) holds to the step-by-step path:
the same rows, balances and answers; its refusals leave nothing written and the transaction
usable; a rollback undoes all it wrote; what it cannot settle (game → wallet, a float shard
not open yet) it leaves locked to the steps.

The transfer's money tests (saga under faults, many clients on one wallet, idempotent retry)
run through it on PostgreSQL already; these pin it to the steps, which SQLite and a member's
first transfer take."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.games import transfer_functions, transfers
from pao.games.catalogue import seed_games
from pao.games.exceptions import NoGame
from pao.games.models import (
    Game,
    GameAccount,
    GameTransfer,
    GameTransferStatus,
    TransferDirection,
)
from pao.games.providers.base import RemoteTransfer, RemoteTransferState
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, LedgerAccount, shard_of
from pao.ledger.service import check_books
from tests.conftest import is_postgres
from tests.withdrawal_helpers import member_with_funds
from tests.written_rows import high_marks, rows_after

GAME = "JOKER"
OTHER_GAME = "PG"
# The rows one transfer writes, by table (game_accounts: the balance the provider reported).
WRITTEN = (
    "journal_entries",
    "postings",
    "ledger_holds",
    "game_transfers",
    "statements",
    "status_changes",
)
# Columns that differ between any two transfers by nature: checked for their type, dropped.
TIMES = ("created_at", "next_check_at", "settled_at", "resolved_at")


@pytest.fixture(autouse=True)
def _postgres_only(database_url: str) -> None:
    if not is_postgres(database_url):
        pytest.skip("the functions are PostgreSQL's; SQLite takes the steps")


def steps_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transfer_functions, "on_postgres", lambda _session: False)


def confirmed(balance: int | None = 7_00) -> transfers.Outcome:
    return transfers.Outcome(
        remote=RemoteTransfer(
            transfer_id="remote", state=RemoteTransferState.SUCCESS, balance=balance
        )
    )


async def member_on_game(session: AsyncSession, funds: int) -> Member:
    """A funded member with an account on the game, not yet transferred to it (not
    committed)."""
    await seed_games(session)
    member = await member_with_funds(session, funds)
    session.add(
        GameAccount(member_id=member.id, game_code=GAME, username=f"u{member.id}", password="p")
    )
    await session.flush()
    return member


async def begin(session: AsyncSession, member: Member, amount: int) -> GameTransfer:
    return await transfers.begin_in(
        session, member_id=member.id, currency=Currency(member.currency), code=GAME, amount=amount
    )


async def member_past_first_transfer(session: AsyncSession, funds: int) -> Member:
    """A member whose first transfer (by the steps: it opens the suspense account and the
    member's shard of the float) has settled."""
    member = await member_on_game(session, funds)
    first = await begin(session, member, 100_00)
    await session.commit()
    await transfers.settle(session, pk=first.id, outcome=confirmed())
    await session.commit()
    return member


async def account_names(session: AsyncSession, member: Member) -> dict[int, str]:
    """The member's accounts and its shard of the game's float, by id → kind."""
    rows = await session.execute(
        select(LedgerAccount.id, LedgerAccount.kind).where(
            (LedgerAccount.owner == str(member.id))
            | (
                (LedgerAccount.kind == AccountKind.PROVIDER_FLOAT)
                & (LedgerAccount.owner == GAME)
                & (LedgerAccount.shard == shard_of(AccountKind.PROVIDER_FLOAT, member.id))
            )
        )
    )
    return {account_id: str(kind) for account_id, kind in rows}


def normalised(
    written: dict[str, list[dict[str, Any]]], member: Member, accounts: dict[int, str]
) -> dict[str, list[dict[str, Any]]]:
    """The rows with their own ids, the member's ids and the transfer's random id replaced
    by names, so that two members' transfers compare; the times checked and dropped."""
    own = {
        table: {row["id"]: f"{table}[{n}]" for n, row in enumerate(rows)}
        for table, rows in written.items()
    }
    transfer_ids = {row["transfer_id"] for row in written["game_transfers"]}
    references = {
        "account_id": accounts,
        "suspense_id": accounts,
        "entry_id": own["journal_entries"],
        "hold_entry_id": own["journal_entries"],
        "resolve_entry_id": own["journal_entries"],
        "hold_id": own["ledger_holds"],
    }
    out: dict[str, list[dict[str, Any]]] = {}
    for table, rows in written.items():
        out[table] = []
        for original in rows:
            row = {**original}
            del row["id"]
            for column in TIMES:
                value = row.pop(column, None)
                assert value is None or isinstance(value, datetime)
            for column in references.keys() & row.keys():
                if row[column] is not None:
                    row[column] = references[column][row[column]]
            if "member_id" in row:
                row["member_id"] = row["member_id"] == member.id
            if table == "statements":
                row["ref_id"] = own["game_transfers"][int(row["ref_id"])]
            if table == "status_changes":
                row["entity_id"] = own[row["entity"]][row["entity_id"]]
            for column, value in row.items():
                if isinstance(value, str):
                    for transfer_id in transfer_ids:
                        value = value.replace(transfer_id, "<transfer id>")
                    row[column] = value.replace(f"member:{member.id}", "member:<id>")
            out[table].append(row)
    return out


async def transfer_and_read(
    session: AsyncSession, member: Member, direction: TransferDirection
) -> tuple[Any, ...]:
    """One transfer of 50.00 to the game or back, confirmed with a balance: the rows written,
    the balances after, the answers of both transactions and the game balance kept."""
    marks = await high_marks(session, WRITTEN)
    if direction == TransferDirection.IN:
        begun = await begin(session, member, 50_00)
    else:
        begun = await transfers.begin_out(
            session,
            member_id=member.id,
            currency=Currency(member.currency),
            code=GAME,
            amount=50_00,
        )
    begun_answer = (begun.status, begun.amount, begun.from_label, begun.to_label, begun.hold_id)
    await session.commit()
    pk = begun.id
    _, settled = await transfers._settle(session, pk=pk, outcome=confirmed(balance=321_00))
    settled_answer = (settled.status, settled.amount, settled.direction, settled.error)
    assert settled in session
    await session.commit()
    written = await rows_after(session, marks)
    balances = {
        kind: balance
        for kind, balance in await session.execute(
            select(LedgerAccount.kind, LedgerAccount.balance).where(
                LedgerAccount.id.in_(await account_names(session, member))
            )
        )
    }
    kept = await session.scalar(
        select(GameAccount.last_balance).where(
            GameAccount.member_id == member.id, GameAccount.game_code == GAME
        )
    )
    accounts = await account_names(session, member)
    return (
        normalised(written, member, accounts),
        balances,
        (begun_answer[:4], settled_answer, kept),
    )


@pytest.mark.parametrize(
    ("direction", "written", "wallet"),
    [
        # entries ×2, postings ×4, hold, transfer, statement line, status changes ×3
        (TransferDirection.IN, [2, 4, 1, 1, 1, 3], 850_00),
        # entry, postings ×2, no hold, transfer, statement line, status changes ×2
        (TransferDirection.OUT, [1, 2, 0, 1, 1, 2], 950_00),
    ],
)
async def test_both_transactions_write_what_the_steps_write(
    session: AsyncSession,
    monkeypatch: pytest.MonkeyPatch,
    direction: TransferDirection,
    written: list[int],
    wallet: int,
) -> None:
    # 900.00 in the wallet and 100.00 on the game each.
    through_functions = await member_past_first_transfer(session, 1_000_00)
    through_steps = await member_past_first_transfer(session, 1_000_00)

    in_one, balances_one, answers_one = await transfer_and_read(
        session, through_functions, direction
    )
    steps_only(monkeypatch)
    in_steps, balances_steps, answers_steps = await transfer_and_read(
        session, through_steps, direction
    )

    assert in_one == in_steps
    assert [len(rows) for rows in in_one.values()] == written
    assert balances_one[AccountKind.PLAYER_WALLET] == balances_steps[AccountKind.PLAYER_WALLET]
    assert balances_one[AccountKind.PLAYER_WALLET] == wallet
    assert balances_one[AccountKind.GAME_TRANSFERS_PENDING] == 0
    assert answers_one == answers_steps
    assert answers_one[1][0] == GameTransferStatus.SUCCESS
    assert answers_one[2] == 321_00
    assert (await check_books(session)).balanced


async def test_the_functions_are_what_runs(session: AsyncSession) -> None:
    """Past the first transfer, neither transaction reaches the steps."""
    member = await member_past_first_transfer(session, 1_000_00)
    begun = await transfer_functions.begin_in(
        session,
        member_id=member.id,
        currency=Currency(member.currency),
        code=GAME,
        amount=10_00,
        parent_id=None,
        from_label="WALLET",
        next_check_at=utcnow(),
        now=utcnow(),
    )
    assert begun is not None
    transfer, username = begun
    assert username == f"u{member.id}"
    await session.commit()
    settled, row = await transfer_functions.settle_confirmed(
        session, pk=transfer.id, balance=None, now=utcnow()
    )
    assert settled == transfer_functions.Settled.OK
    assert row.status == GameTransferStatus.SUCCESS
    await session.commit()
    # Settled once: a second confirmation finds it settled and writes nothing.
    marks = await high_marks(session, WRITTEN)
    again, row = await transfer_functions.settle_confirmed(
        session, pk=transfer.id, balance=None, now=utcnow()
    )
    assert again == transfer_functions.Settled.SETTLED
    assert row.status == GameTransferStatus.SUCCESS
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())


async def test_refusals_write_nothing_and_leave_the_transaction_usable(
    session: AsyncSession,
) -> None:
    member = await member_past_first_transfer(session, 300_00)  # 200.00 left
    marks = await high_marks(session, WRITTEN)
    with pytest.raises(InsufficientFunds):
        await begin(session, member, 200_01)
    await session.execute(update(Game).where(Game.code == GAME).values(enabled=False))
    with pytest.raises(NoGame):
        await begin(session, member, 10_00)
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    await session.execute(update(Game).where(Game.code == GAME).values(enabled=True))
    transfer = await begin(session, member, 200_00)
    await session.commit()
    assert transfer.amount == 200_00
    assert (await check_books(session)).balanced


async def test_a_member_without_an_account_on_the_game_is_refused(session: AsyncSession) -> None:
    await seed_games(session)
    member = await member_with_funds(session, 100_00)
    with pytest.raises(NoGame):
        await begin(session, member, 10_00)


async def test_a_first_transfer_takes_the_steps_and_opens_the_accounts(
    session: AsyncSession,
) -> None:
    member = await member_past_first_transfer(session, 500_00)
    kinds = sorted((await account_names(session, member)).values())
    assert kinds == [
        AccountKind.GAME_TRANSFERS_PENDING,
        AccountKind.PLAYER_WALLET,
        AccountKind.PROVIDER_FLOAT,
    ]


async def test_a_rollback_undoes_everything_the_functions_wrote(session: AsyncSession) -> None:
    member = await member_past_first_transfer(session, 1_000_00)
    marks = await high_marks(session, WRITTEN)
    await begin(session, member, 500_00)
    await session.rollback()
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    await session.refresh(member)  # the rollback expired it
    transfer = await begin(session, member, 500_00)
    pk = transfer.id
    await session.commit()
    marks = await high_marks(session, WRITTEN)
    await transfers._settle(session, pk=pk, outcome=confirmed())
    await session.rollback()
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    still = await session.scalar(select(GameTransfer.status).where(GameTransfer.id == pk))
    assert still == GameTransferStatus.PENDING


async def test_game_to_game_starts_leg_two_in_the_settling_transaction(
    session: AsyncSession,
) -> None:
    """Leg one (game → wallet) settles in one statement; leg two (wallet → the other game)
    is begun by the other function in the same transaction, so the money is never between
    the legs without a record."""
    member = await member_past_first_transfer(session, 1_000_00)  # 100.00 on the game
    session.add(GameAccount(member_id=member.id, game_code=OTHER_GAME, username="o", password="p"))
    await session.flush()
    out = await transfers.begin_out(
        session,
        member_id=member.id,
        currency=Currency(member.currency),
        code=GAME,
        amount=60_00,
        then_to=OTHER_GAME,
    )
    await session.commit()
    leg_two, settled = await transfers._settle(session, pk=out.id, outcome=confirmed())
    await session.commit()
    assert settled.status == GameTransferStatus.SUCCESS
    assert leg_two is not None
    second = await session.get(GameTransfer, leg_two)
    assert second is not None
    assert (second.parent_id, second.game_code, second.status, second.from_label) == (
        out.id,
        OTHER_GAME,
        GameTransferStatus.PENDING,
        GAME,
    )
    wallet = await session.scalar(
        select(LedgerAccount.balance).where(
            LedgerAccount.owner == str(member.id), LedgerAccount.kind == AccountKind.PLAYER_WALLET
        )
    )
    assert wallet == 900_00  # 60.00 in from leg one, held again by leg two
    assert (await check_books(session)).balanced
