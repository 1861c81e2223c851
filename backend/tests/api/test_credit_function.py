"""The deposit credit in one statement on PostgreSQL (``pao_credit_wallet``, ADR 0018) holds to
the step-by-step path: the same rows, balances and entry, its refusal leaves nothing written
and the transaction usable, a first credit opens its accounts through the steps, and a
rollback undoes all it wrote.

The deposit tests of every channel (slips, QR, gateways, TrueMoney) and the ledger's run
through it on PostgreSQL already; these pin it to the steps, which SQLite and a first credit
take."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.executor import recorded
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger import credit_function
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount, shard_of
from pao.ledger.service import check_books, credit_wallet, get_or_open_account
from tests.conftest import is_postgres
from tests.written_rows import high_marks, rows_after

# The rows one credit writes, by table.
WRITTEN = ("journal_entries", "postings")
# Two members on different shard rows of the operator's accounts.
MEMBERS = (3, 4)
SOURCES = [(AccountKind.BANK_CLEARING, ""), (AccountKind.GATEWAY_CLEARING, "WW")]


@pytest.fixture(autouse=True)
def _postgres_only(database_url: str) -> None:
    if not is_postgres(database_url):
        pytest.skip("the function is PostgreSQL's; SQLite takes the steps")


def steps_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """From here on the function declines, as for accounts still to open: the steps run."""

    async def declined(*_args: object, **_kwargs: object) -> None:
        return None

    monkeypatch.setattr(credit_function, "credit", declined)


async def credit(
    session: AsyncSession,
    member_id: int,
    amount: int,
    source: tuple[AccountKind, str] = SOURCES[0],
) -> JournalEntry:
    return await credit_wallet(
        session,
        source_kind=source[0],
        source_owner=source[1],
        member_id=member_id,
        currency=Currency.THB,
        amount=amount,
        kind="deposit",
        actor="slip:1",
        memo="slip 004:REF",
    )


async def opened(session: AsyncSession, member_id: int, source: tuple[AccountKind, str]) -> None:
    """The member's first credit (which opens the wallet and the shard row, by the steps),
    and rows the credit must not pick: another owner's row of the same kind and shard, the
    member's wallet in another currency."""
    await credit(session, member_id, 10_00, source)
    await get_or_open_account(
        session, kind=source[0], currency=Currency.THB, owner="OTHER", member_id=member_id
    )
    await get_or_open_account(
        session, kind=AccountKind.PLAYER_WALLET, currency=Currency.LAK, owner=str(member_id)
    )
    await session.commit()


async def accounts(
    session: AsyncSession, member_id: int, source: tuple[AccountKind, str]
) -> dict[int, tuple[str, int]]:
    """The credit's two accounts: id → (name, balance)."""
    rows = await session.execute(
        select(LedgerAccount.id, LedgerAccount.kind, LedgerAccount.balance).where(
            (
                (LedgerAccount.kind == AccountKind.PLAYER_WALLET)
                & (LedgerAccount.owner == str(member_id))
            )
            | (
                (LedgerAccount.kind == source[0])
                & (LedgerAccount.owner == source[1])
                & (LedgerAccount.shard == shard_of(source[0], member_id))
            ),
            LedgerAccount.currency == Currency.THB,
        )
    )
    return {account_id: (kind, balance) for account_id, kind, balance in rows}


def normalised(
    written: dict[str, list[dict[str, Any]]], names: dict[int, str]
) -> dict[str, list[dict[str, Any]]]:
    """The rows with their own ids and the accounts' ids replaced by names, so that two
    members' credits compare; the times checked and dropped."""
    entries = {row["id"]: f"entry[{n}]" for n, row in enumerate(written["journal_entries"])}
    references = {"account_id": names, "entry_id": entries, "reverses_id": entries}
    out: dict[str, list[dict[str, Any]]] = {}
    for table, rows in written.items():
        out[table] = []
        for row in rows:
            row = {**row}
            del row["id"]
            created = row.pop("created_at", None)
            assert created is None or isinstance(created, datetime)
            for column in references.keys() & row.keys():
                if row[column] is not None:
                    row[column] = references[column][row[column]]
            out[table].append(row)
    return out


async def credit_and_read(
    app: FastAPI, session: AsyncSession, member_id: int, source: tuple[AccountKind, str]
) -> tuple[Any, ...]:
    marks = await high_marks(session, WRITTEN)
    before = utcnow()
    with recorded(app.state.engine) as statements:
        entry = await credit(session, member_id, 250_00, source)
    await session.commit()
    written = await rows_after(session, marks)
    assert before <= written["journal_entries"][0]["created_at"] <= utcnow()
    held = await accounts(session, member_id, source)
    names = {account_id: kind for account_id, (kind, _) in held.items()}
    balances = {kind: balance for kind, balance in held.values()}
    # The entry handed back is the row, persistent in the session as the steps' is.
    assert entry in session
    assert entry.id == written["journal_entries"][0]["id"]
    assert entry.created_at == written["journal_entries"][0]["created_at"]
    answer = (entry.kind, entry.actor, entry.memo, entry.reverses_id)
    return normalised(written, names), balances, answer, statements


@pytest.mark.parametrize("source", SOURCES, ids=lambda s: s[0].value)
async def test_the_function_writes_what_the_steps_write(
    app: FastAPI,
    session: AsyncSession,
    monkeypatch: pytest.MonkeyPatch,
    source: tuple[AccountKind, str],
) -> None:
    for member_id in MEMBERS:
        await opened(session, member_id, source)

    in_one, balances_one, answer_one, sent_one = await credit_and_read(
        app, session, MEMBERS[0], source
    )
    steps_only(monkeypatch)
    in_steps, balances_steps, answer_steps, sent_steps = await credit_and_read(
        app, session, MEMBERS[1], source
    )

    # Each implementation did run: one statement against the lock, entry, balances, postings.
    assert [s.split(" FROM ")[1].split("(")[0] for s in sent_one] == ["pao_credit_wallet"]
    assert len(sent_steps) == 4, sent_steps
    assert in_one == in_steps
    assert [len(rows) for rows in in_one.values()] == [1, 2]
    assert balances_one == balances_steps == {AccountKind.PLAYER_WALLET: 260_00, source[0]: -260_00}
    assert answer_one == answer_steps == ("deposit", "slip:1", "slip 004:REF", None)
    assert (await check_books(session)).balanced


async def test_a_short_source_is_refused_with_nothing_written(
    session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A source that may not go negative and would is refused as the steps refuse it; as data,
    so the transaction is still usable and nothing was written in it."""
    for member_id in MEMBERS:
        await opened(session, member_id, SOURCES[0])
        clearing = await get_or_open_account(
            session, kind=AccountKind.BANK_CLEARING, currency=Currency.THB, member_id=member_id
        )
        # An operator row that may not go negative, with 5.00 on it: no such row exists in
        # Pao, but the rule is the ledger's, for every account.
        await session.execute(
            update(LedgerAccount)
            .where(LedgerAccount.id == clearing.id)
            .values(may_go_negative=False, balance=5_00)
        )
    await session.commit()
    marks = await high_marks(session, WRITTEN)
    with pytest.raises(InsufficientFunds):
        await credit(session, MEMBERS[0], 5_01)
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    await credit(session, MEMBERS[0], 5_00)
    steps_only(monkeypatch)
    with pytest.raises(InsufficientFunds):
        await credit(session, MEMBERS[1], 5_01)
    await session.commit()
    clearings = [
        balance
        for member_id in MEMBERS
        for kind, balance in (await accounts(session, member_id, SOURCES[0])).values()
        if kind == AccountKind.BANK_CLEARING
    ]
    assert clearings == [0, 5_00]


async def test_a_first_credit_takes_the_steps_and_opens_the_accounts(
    app: FastAPI, session: AsyncSession
) -> None:
    with recorded(app.state.engine) as statements:
        entry = await credit(session, MEMBERS[0], 100_00)
    await session.commit()
    assert "pao_credit_wallet" in statements[0]
    assert "ORDER BY ledger_accounts.id FOR UPDATE" in statements[1]  # the steps' lock
    held = await accounts(session, MEMBERS[0], SOURCES[0])
    assert sorted(held.values()) == [
        (AccountKind.BANK_CLEARING, -100_00),
        (AccountKind.PLAYER_WALLET, 100_00),
    ]
    assert entry in session
    assert (await check_books(session)).balanced


async def test_a_rollback_undoes_everything_the_function_wrote(session: AsyncSession) -> None:
    await opened(session, MEMBERS[0], SOURCES[0])
    marks = await high_marks(session, WRITTEN)
    # The first statement of this transaction is the function's call, on the driver.
    await credit(session, MEMBERS[0], 500_00)
    await session.rollback()
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    held = await accounts(session, MEMBERS[0], SOURCES[0])
    assert sorted(held.values()) == [
        (AccountKind.BANK_CLEARING, -10_00),
        (AccountKind.PLAYER_WALLET, 10_00),
    ]


async def test_accounts_the_session_holds_show_their_new_balances(session: AsyncSession) -> None:
    """As the steps leave them: a caller that read the wallet before sees it after, with no
    reload (which an async session cannot do implicitly)."""
    await opened(session, MEMBERS[0], SOURCES[0])
    held = {
        account.kind: account
        for account in await session.scalars(
            select(LedgerAccount).where(
                LedgerAccount.kind.in_([AccountKind.PLAYER_WALLET, AccountKind.BANK_CLEARING]),
                LedgerAccount.owner.in_([str(MEMBERS[0]), ""]),
                LedgerAccount.currency == Currency.THB,
            )
        )
    }
    await credit(session, MEMBERS[0], 300_00)
    assert held[AccountKind.PLAYER_WALLET].balance == 310_00
    assert held[AccountKind.BANK_CLEARING].balance == -310_00
    await session.commit()
