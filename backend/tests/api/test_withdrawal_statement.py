"""A member's withdrawal request as one statement on PostgreSQL (``pao_withdraw``, issue 36,
ADR 0039) holds to the steps it replaces (the login, ``run_idempotent`` around
``request_withdrawal``): the same rows and key record, the same answer to every refusal, in the
same order; nothing written by a refusal, not even the key; one statement alone, in
autocommit; and under concurrency one hold per intent and no overdraft.

Every member here is past the first withdrawal, which takes the steps (they open the suspense
account), so the requests below take the statement."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, update

from pao.core import executor
from pao.identity.models import LoginSession, Member, MemberStatus
from pao.kit.clock import utcnow
from pao.kit.idempotency import IdempotencyRecord
from pao.kit.money import Currency
from pao.ledger.models import Hold
from pao.ledger.service import check_books
from pao.wallet import router as wallet_router
from pao.wallet.adjustments import credit_manually
from pao.wallet.service import find_member_by_phone, wallet_balance
from tests.api.test_withdrawal_function import WRITTEN, accounts, normalised
from tests.conftest import is_postgres
from tests.helpers import app_of, auth, set_money_setting
from tests.promotions_helpers import give_active_bonus
from tests.withdrawal_helpers import funded_member, request_withdrawal
from tests.written_rows import high_marks, rows_after

PATH = "/api/wallet/withdraw"


@pytest.fixture(autouse=True)
def _postgres_only(database_url: str) -> None:
    if not is_postgres(database_url):
        pytest.skip("the statement is PostgreSQL's; SQLite takes the steps")


async def past_first(
    client: httpx.AsyncClient, funds: int = 1_000_00, first: int = 100
) -> tuple[Member, str]:
    """A member given ``funds`` (minor units) who withdrew ``first`` baht already."""
    phone, token = await funded_member(client, funds=funds)
    await request_withdrawal(client, token, first)
    async with app_of(client).state.sessionmaker() as session:
        member = await find_member_by_phone(session, phone=phone)
    return member, token


def steps_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The route takes the steps on PostgreSQL too (what the statement is held to)."""

    async def none(*_args: Any, **_kwargs: Any) -> None:
        return None

    monkeypatch.setattr(wallet_router, "withdraw_alone", none)


async def scalar(app: FastAPI, query: Any) -> Any:
    async with app.state.sessionmaker() as session:
        return (await session.execute(query)).scalar_one()


async def keys_of(app: FastAPI, member: Member) -> int:
    return int(
        await scalar(
            app,
            select(func.count())
            .select_from(IdempotencyRecord)
            .where(IdempotencyRecord.owner == f"member:{member.id}"),
        )
    )


async def withdraw_and_read(
    client: httpx.AsyncClient, member: Member, token: str, key: str
) -> tuple[Any, ...]:
    app = app_of(client)
    async with app.state.sessionmaker() as session:
        marks = await high_marks(session, (*WRITTEN, "idempotency_keys"))
    response = await client.post(
        PATH, json={"amount": 150}, headers={**auth(token), "Idempotency-Key": key}
    )
    assert response.status_code == 200, response.text
    async with app.state.sessionmaker() as session:
        written = await rows_after(session, marks)
        names = await accounts(session, member)
    record = written.pop("idempotency_keys")
    assert len(record) == 1
    kept = {k: v for k, v in record[0].items() if k not in ("id", "created_at", "owner")}
    kept["response"] = {**kept["response"], "withdrawalId": "<id>"}
    assert record[0]["owner"] == f"member:{member.id}"
    assert record[0]["response"]["withdrawalId"] == written["withdrawals"][0]["id"]
    return normalised(written, member, names), kept, {**response.json(), "withdrawalId": "<id>"}


async def test_a_request_is_one_statement_alone(client: httpx.AsyncClient, app: FastAPI) -> None:
    member, token = await past_first(client)
    headers = {**auth(token), "Idempotency-Key": str(uuid.uuid4())}
    with executor.recorded(app.state.engine) as sent:
        first = await client.post(PATH, json={"amount": 150}, headers=headers)
        again = await client.post(PATH, json={"amount": 150}, headers=headers)
    assert first.status_code == again.status_code == 200, first.text
    assert again.json() == first.json()
    # The settings are read at most once a second; anything else is the function's one call,
    # not wrapped in a transaction the session would open.
    calls = [s for s in sent if "site_settings" not in s]
    assert len(calls) == 2, calls
    assert all("pao_withdraw(" in s for s in calls), calls
    assert not any(s.split()[0].upper() in ("BEGIN", "COMMIT") for s in sent), sent
    async with app.state.sessionmaker() as session:
        assert await wallet_balance(session, member_id=member.id, currency=Currency.THB) == 750_00


async def test_it_writes_what_the_steps_write(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_statement = await withdraw_and_read(client, *await past_first(client), key="same-key")
    steps_only(monkeypatch)
    by_steps = await withdraw_and_read(client, *await past_first(client), key="same-key")
    assert by_statement == by_steps


async def _refusal(client: httpx.AsyncClient, app: FastAPI, case: str) -> tuple[int, Any]:
    """One refused request of ``case`` by a new member past the first withdrawal: the answer;
    and nothing written, not even the key (a retry is evaluated afresh)."""
    member, token = await past_first(client, funds=300_00)
    amount = {"short": 500, "below": 50, "above": 60_000, "zero": 0}.get(case, 150)
    headers = {**auth(token), "Idempotency-Key": f"refused-{case}"}
    if case == "no-bank":
        await edit(
            app,
            update(Member)
            .where(Member.id == member.id)
            # Not null in the schema: an empty number is how an account goes missing (a bank
            # code of its own keeps the two members of the test apart).
            .values(bank_code=f"N{member.id}", bank_account_no=""),
        )
    if case == "suspended":
        await edit(
            app,
            update(Member).where(Member.id == member.id).values(status=MemberStatus.INACTIVE),
        )
    if case == "revoked":
        await edit(
            app,
            update(LoginSession)
            .where(LoginSession.member_id == member.id)
            .values(revoked_at=utcnow()),
        )
    if case == "bonus":
        await give_active_bonus(app, member.id)
    if case == "reused":
        first = await client.post(PATH, json={"amount": 100}, headers=headers)
        assert first.status_code == 200, first.text
    if case == "bad-token":
        headers["Authorization"] = "Bearer not-a-token"
    if case == "not-offered":
        await set_money_setting(client, "withdrawMin", THB=None)
    holds = await scalar(app, select(func.count()).select_from(Hold))
    keys = await keys_of(app, member)
    response = await client.post(PATH, json={"amount": amount}, headers=headers)
    if case == "not-offered":
        await set_money_setting(client, "withdrawMin", THB=100_00)
    assert await scalar(app, select(func.count()).select_from(Hold)) == holds
    assert await keys_of(app, member) == keys
    return response.status_code, response.json()


async def edit(app: FastAPI, statement: Any) -> None:
    async with app.state.sessionmaker() as session:
        await session.execute(statement)
        await session.commit()


REFUSALS = [
    "short",
    "below",
    "above",
    "zero",
    "no-bank",
    "bonus",
    "reused",
    "suspended",
    "revoked",
    "bad-token",
    "not-offered",
]


@pytest.mark.parametrize("case", REFUSALS)
async def test_each_refusal_is_the_steps_and_writes_nothing(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    by_statement = await _refusal(client, app, case)
    steps_only(monkeypatch)
    by_steps = await _refusal(client, app, case)
    assert by_statement == by_steps
    assert 400 <= by_statement[0] < 500, by_statement


async def test_a_refused_key_is_free_for_the_retry(client: httpx.AsyncClient, app: FastAPI) -> None:
    member, token = await past_first(client, funds=200_00)
    headers = {**auth(token), "Idempotency-Key": "after-a-top-up"}
    refused = await client.post(PATH, json={"amount": 150}, headers=headers)
    assert refused.json() == {"message": "MONEY_NOT_ENOUGH"}
    async with app.state.sessionmaker() as session:
        await credit_manually(session, member=member, amount=100_00, note="top-up", actor="t")
        await session.commit()
    retried = await client.post(PATH, json={"amount": 150}, headers=headers)
    assert retried.status_code == 200, retried.text


async def test_concurrent_retries_of_one_intent_hold_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_money_setting(client, "withdrawMin", THB=1_00)
    member, token = await past_first(client, funds=20_00, first=1)
    headers = {**auth(token), "Idempotency-Key": "one-intent"}
    holds = await scalar(app, select(func.count()).select_from(Hold))

    answers = await asyncio.gather(
        *(client.post(PATH, json={"amount": 5}, headers=headers) for _ in range(20))
    )

    assert {r.status_code for r in answers} == {200}, [r.text for r in answers]
    assert len({r.json()["withdrawalId"] for r in answers}) == 1
    assert await scalar(app, select(func.count()).select_from(Hold)) == holds + 1
    async with app.state.sessionmaker() as session:
        assert await wallet_balance(session, member_id=member.id, currency=Currency.THB) == 14_00
        assert (await check_books(session)).balanced


async def test_concurrent_withdrawals_cannot_overdraw(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_money_setting(client, "withdrawMin", THB=1_00)
    member, token = await past_first(client, funds=20_00, first=1)

    answers = await asyncio.gather(
        *(
            client.post(
                PATH,
                json={"amount": 10},
                headers={**auth(token), "Idempotency-Key": f"intent-{i}"},
            )
            for i in range(40)
        )
    )

    outcomes = sorted((r.status_code, r.json().get("message")) for r in answers)
    assert outcomes.count((200, None)) == 1, outcomes
    assert outcomes.count((400, "MONEY_NOT_ENOUGH")) == 39, outcomes
    async with app.state.sessionmaker() as session:
        assert await wallet_balance(session, member_id=member.id, currency=Currency.THB) == 9_00
        assert (await check_books(session)).balanced
    assert await keys_of(app, member) == 1
