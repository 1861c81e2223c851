"""The withdrawal in one statement on PostgreSQL (``pao_request_withdrawal``, ADR 0018) holds
to the step-by-step path: the same rows, balances and answers, its refusals leave nothing
written and the transaction usable, and a rollback undoes all it wrote.

The money tests of the withdrawal (properties, concurrency, idempotent retry) run through it
on PostgreSQL already; these pin it to the steps, which SQLite and a first withdrawal take."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, LedgerAccount
from pao.ledger.service import check_books
from pao.wallet import withdrawal_function
from pao.wallet.withdrawals import request_withdrawal
from tests.conftest import is_postgres
from tests.withdrawal_helpers import member_with_funds
from tests.written_rows import high_marks, rows_after

# The rows one withdrawal writes, by table.
WRITTEN = ("journal_entries", "postings", "ledger_holds", "withdrawals", "statements")


@pytest.fixture(autouse=True)
def _postgres_only(database_url: str) -> None:
    if not is_postgres(database_url):
        pytest.skip("the function is PostgreSQL's; SQLite takes the steps")


async def member_with(session: AsyncSession, funds: int) -> Member:
    """A funded member past the first withdrawal, which opens the suspense account (the steps
    do, on both databases)."""
    member = await member_with_funds(session, funds)
    await request_withdrawal(session, member=member, amount=100_00)
    await session.commit()
    return member


async def accounts(session: AsyncSession, member: Member) -> dict[int, str]:
    rows = await session.execute(
        select(LedgerAccount.id, LedgerAccount.kind).where(LedgerAccount.owner == str(member.id))
    )
    return {account_id: kind for account_id, kind in rows}


def normalised(
    written: dict[str, list[dict[str, Any]]], member: Member, names: dict[int, str]
) -> dict[str, list[dict[str, Any]]]:
    """The rows with their own ids, the member's ids and its bank account number replaced by
    names, so that two members' withdrawals compare; the times checked and dropped."""
    own = {
        table: {row["id"]: f"{table}[{n}]" for n, row in enumerate(written[table])}
        for table in ("journal_entries", "ledger_holds", "withdrawals")
    }
    references = {
        "account_id": names,
        "suspense_id": names,
        "entry_id": own["journal_entries"],
        "hold_entry_id": own["journal_entries"],
        "resolve_entry_id": own["journal_entries"],
        "hold_id": own["ledger_holds"],
    }
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
            if "member_id" in row:
                row["member_id"] = row["member_id"] == member.id
            if table == "statements":
                row["ref_id"] = own["withdrawals"][int(row["ref_id"])]
            for column, value in row.items():
                if isinstance(value, str):
                    row[column] = value.replace(member.bank_account_no or "?", "<account>").replace(
                        f"member:{member.id}", "member:<id>"
                    )
            out[table].append(row)
    return out


async def withdraw_and_read(session: AsyncSession, member: Member, amount: int) -> tuple[Any, ...]:
    marks = await high_marks(session, WRITTEN)
    before = utcnow()
    withdrawal = await request_withdrawal(session, member=member, amount=amount)
    await session.commit()
    written = await rows_after(session, marks)
    for rows in written.values():
        for row in rows:
            if "created_at" in row:
                assert before <= row["created_at"] <= utcnow()
    balances = {
        kind: balance
        for kind, balance in await session.execute(
            select(LedgerAccount.kind, LedgerAccount.balance).where(
                LedgerAccount.owner == str(member.id)
            )
        )
    }
    answer = (withdrawal.status, withdrawal.amount, withdrawal.hold_id, withdrawal.bank_code)
    names = await accounts(session, member)
    return normalised(written, member, names), balances, answer, withdrawal


async def test_the_function_writes_what_the_steps_write(
    session: AsyncSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    through_function = await member_with(session, 1_000_00)
    through_steps = await member_with(session, 1_000_00)

    in_one, balances_one, answer_one, withdrawal = await withdraw_and_read(
        session, through_function, 250_00
    )
    monkeypatch.setattr(withdrawal_function, "on_postgres", lambda _session: False)
    in_steps, balances_steps, answer_steps, _ = await withdraw_and_read(
        session, through_steps, 250_00
    )

    assert in_one == in_steps
    assert [len(rows) for rows in in_one.values()] == [1, 2, 1, 1, 1]
    assert (
        balances_one
        == balances_steps
        == {
            AccountKind.PLAYER_WALLET: 650_00,
            AccountKind.WITHDRAWALS_PENDING: 350_00,
        }
    )
    assert answer_one[0] == answer_steps[0] == "PENDING"
    # The object handed back is the row, persistent in the session as the steps' is.
    assert withdrawal in session
    await session.refresh(withdrawal)
    assert withdrawal.hold_id == answer_one[2]
    await check_books(session)


async def test_a_short_wallet_is_refused_with_nothing_written(session: AsyncSession) -> None:
    member = await member_with(session, 300_00)  # 200.00 left after the first withdrawal
    marks = await high_marks(session, WRITTEN)
    with pytest.raises(InsufficientFunds):
        await request_withdrawal(session, member=member, amount=200_01)
    # Refused as data: the transaction is still usable, and nothing was written in it.
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    withdrawal = await request_withdrawal(session, member=member, amount=200_00)
    await session.commit()
    assert withdrawal.amount == 200_00
    await check_books(session)


async def test_a_first_withdrawal_takes_the_steps_and_opens_the_accounts(
    session: AsyncSession,
) -> None:
    member = await member_with_funds(session, 500_00)
    await request_withdrawal(session, member=member, amount=100_00)
    await session.commit()
    assert sorted((await accounts(session, member)).values()) == [
        AccountKind.PLAYER_WALLET,
        AccountKind.WITHDRAWALS_PENDING,
    ]


async def test_a_rollback_undoes_everything_the_function_wrote(session: AsyncSession) -> None:
    member = await member_with(session, 1_000_00)
    owner = str(member.id)  # the rollback expires the object
    marks = await high_marks(session, WRITTEN)
    await request_withdrawal(session, member=member, amount=500_00)
    await session.rollback()
    assert all(rows == [] for rows in (await rows_after(session, marks)).values())
    wallet = await session.scalar(
        select(LedgerAccount.balance).where(
            LedgerAccount.owner == owner, LedgerAccount.kind == AccountKind.PLAYER_WALLET
        )
    )
    assert wallet == 900_00


async def test_accounts_the_session_holds_show_their_new_balances(session: AsyncSession) -> None:
    """As the steps leave them: a caller that read the wallet before sees it after, with no
    reload (which an async session cannot do implicitly)."""
    member = await member_with(session, 1_000_00)
    held = {
        account.kind: account
        for account in await session.scalars(
            select(LedgerAccount).where(LedgerAccount.owner == str(member.id))
        )
    }
    await request_withdrawal(session, member=member, amount=300_00)
    assert held[AccountKind.PLAYER_WALLET].balance == 600_00
    assert held[AccountKind.WITHDRAWALS_PENDING].balance == 400_00
    await session.commit()
