"""A member's wallet → game transfer with its first transaction as one statement on
PostgreSQL (``pao_transfer_in``, issue 36, ADR 0039). It holds to the steps it replaces (the
login, player protection, ``run_idempotent`` around ``pao_begin_transfer_in``):
- the same answer, rows and key record;
- the same refusals, with nothing written, not even the key;
- one statement alone for the whole of transaction 1;
- under concurrency, one transfer per intent and no overdraft.

Every member here is past a first transfer, which takes the steps (they open the suspense
account), so the requests below take the statement."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select, update

from pao.backoffice.staff.roles import Role
from pao.core import executor
from pao.games import transfers
from pao.games.models import GameTransfer
from pao.identity.models import LoginSession, Member
from pao.kit.clock import utcnow
from pao.kit.idempotency import IdempotencyRecord
from pao.ledger.models import AccountKind, Hold
from pao.protection.models import ProtectionHit
from tests.conftest import is_postgres
from tests.games_support import (
    activate,
    assert_books_balance,
    balance_of,
    funded_member,
    seed,
    transfer_headers,
    wallet_minor,
)
from tests.promotions_helpers import give_active_bonus
from tests.staff_helpers import add_staff, bearer, open_token

PATH = "/api/wallet/transfer"


@pytest.fixture(autouse=True)
def _postgres_only(database_url: str) -> None:
    if not is_postgres(database_url):
        pytest.skip("the statement is PostgreSQL's; SQLite takes the steps")


async def past_first(client: httpx.AsyncClient, app: FastAPI, funds: int) -> tuple[str, int]:
    """A member given ``funds`` (minor units) who moved 1 baht to JOKER already."""
    token, mid = await funded_member(client, funds)
    await activate(client, token, "JOKER")
    first = await move(client, token, 1)
    assert first.status_code == 200, first.text
    return token, mid


async def move(
    client: httpx.AsyncClient,
    token: str,
    amount: Any,
    key: str | None = None,
    to: str = "JOKER",
    source: str = "WALLET",
) -> httpx.Response:
    return await client.post(
        PATH,
        json={"from": source, "to": to, "amount": amount},
        headers=transfer_headers(token, key),
    )


async def back(
    client: httpx.AsyncClient, token: str, amount: Any, key: str | None = None, game: str = "JOKER"
) -> httpx.Response:
    """Game → wallet."""
    return await move(client, token, amount, key, to="WALLET", source=game)


def steps_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The route takes the steps on PostgreSQL too (what the statement is held to)."""

    async def none(*_args: Any, **_kwargs: Any) -> None:
        return None

    monkeypatch.setattr(transfers, "transfer_alone", none)


async def count(app: FastAPI, model: Any, *where: Any) -> int:
    async with app.state.sessionmaker() as session:
        return int(
            (
                await session.execute(select(func.count()).select_from(model).where(*where))
            ).scalar_one()
        )


@pytest.mark.parametrize("direction", ["in", "out"])
async def test_transaction_1_is_one_statement_alone(
    client: httpx.AsyncClient, app: FastAPI, direction: str
) -> None:
    await seed(app)
    token, mid = await past_first(client, app, 100_00)
    source, to = "WALLET", "JOKER"
    if direction == "out":
        assert (await move(client, token, 10)).status_code == 200
        source, to = to, source
    with executor.recorded(app.state.engine) as sent:
        first = await move(client, token, 5, "one-intent", to=to, source=source)
        again = await move(client, token, 5, "one-intent", to=to, source=source)
    assert first.status_code == again.status_code == 200, first.text
    assert again.json() == first.json()
    assert first.json()["transfers"][0]["status"] == "SUCCESS"
    # Transaction 1 is one call; transaction 2 is the settling function; a replay is the call
    # and the read of the transfers it answers from. No login, no key statement of its own.
    calls = [s for s in sent if "site_settings" not in s and "provider_maintenance" not in s]
    assert sum("pao_transfer_begin(" in s for s in calls) == 2, calls
    assert sum("pao_settle_transfer(" in s for s in calls) == 1, calls
    assert not any(
        "FROM login_sessions AS" in s or "idempotency_keys" in s.split("(")[0] for s in calls
    ), calls
    # 100 less the first baht, then 5 in (or 10 in and 5 back): 94 in the wallet, 6 on JOKER.
    assert await wallet_minor(app, mid) == 94_00
    assert await balance_of(app, AccountKind.PROVIDER_FLOAT, "JOKER") == 6_00


async def _answer_and_rows(
    client: httpx.AsyncClient, app: FastAPI, direction: str
) -> tuple[Any, ...]:
    """What one request of ``direction`` (``in``: 7 baht to JOKER; ``out``: 3 baht back,
    after 10 in) answers and writes, its own ids replaced."""
    token, mid = await past_first(client, app, 100_00)
    if direction == "out":
        assert (await move(client, token, 10)).status_code == 200
    response = await (
        back(client, token, 3, key="k") if direction == "out" else move(client, token, 7, key="k")
    )
    assert response.status_code == 200, response.text
    body = response.json()
    async with app.state.sessionmaker() as session:
        transfer = (
            (
                await session.execute(
                    select(GameTransfer)
                    .where(GameTransfer.member_id == mid)
                    .order_by(GameTransfer.id.desc())
                )
            )
            .scalars()
            .first()
        )
        record = (
            await session.execute(
                select(IdempotencyRecord).where(
                    IdempotencyRecord.owner == f"member:{mid}", IdempotencyRecord.key == "k"
                )
            )
        ).scalar_one()
    assert transfer is not None
    row = {
        c: getattr(transfer, c)
        for c in (
            "direction",
            "amount",
            "currency",
            "status",
            "hold_id",
            "from_label",
            "to_label",
            "attempts",
            "error",
            "then_to",
            "parent_id",
        )
    }
    row["hold_id"] = row["hold_id"] is not None
    [started] = record.response["transfers"]
    assert started["transferId"] == str(transfer.id)
    kept = {**record.response, "transfers": [{**started, "transferId": "<pk>"}]}
    shown = {**body, "transfers": [{**body["transfers"][0], "transferId": "<id>"}]}
    return shown, row, (record.request_hash, record.status_code, kept), await wallet_minor(app, mid)


@pytest.mark.parametrize("direction", ["in", "out"])
async def test_it_answers_and_writes_what_the_steps_do(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch, direction: str
) -> None:
    await seed(app)
    by_statement = await _answer_and_rows(client, app, direction)
    steps_only(monkeypatch)
    by_steps = await _answer_and_rows(client, app, direction)
    assert by_statement == by_steps


async def _refusal(client: httpx.AsyncClient, app: FastAPI, case: str) -> tuple[int, Any]:
    """One refused wallet → game request of ``case`` by a new member past the first transfer:
    the answer; and no hold, no transfer and no key written by it."""
    token, mid = await past_first(client, app, 20_00)
    amount, to, key = 5, "JOKER", f"refused-{case}"
    if case == "short":
        amount = 500
    if case == "no-game":
        to = "NOSUCHGAME"
    if case == "reused":
        assert (await move(client, token, 2, key=key)).status_code == 200
    if case == "revoked":
        async with app.state.sessionmaker() as session:
            await session.execute(
                update(LoginSession)
                .where(LoginSession.member_id == mid)
                .values(revoked_at=utcnow())
            )
            await session.commit()
    if case == "bad-token":
        token = "not-a-token"
    if case == "maintenance":
        manager = await open_token(app, await add_staff(app, role=Role.MANAGER))
        on = await client.put(
            "/api/backoffice/providers/JOKER/maintenance",
            headers=bearer(manager),
            json={"reason": "upgrade", "until": (utcnow() + timedelta(hours=1)).isoformat()},
        )
        assert on.status_code == 200, on.text
    holds = await count(app, Hold)
    transfers = await count(app, GameTransfer, GameTransfer.member_id == mid)
    keys = await count(app, IdempotencyRecord, IdempotencyRecord.owner == f"member:{mid}")
    response = await move(client, token, amount, key=key, to=to)
    assert await count(app, Hold) == holds
    assert await count(app, GameTransfer, GameTransfer.member_id == mid) == transfers
    assert await count(app, IdempotencyRecord, IdempotencyRecord.owner == f"member:{mid}") == keys
    if case == "maintenance":
        off = await client.delete(
            "/api/backoffice/providers/JOKER/maintenance", headers=bearer(manager)
        )
        assert off.status_code == 200
    return response.status_code, response.json()


@pytest.mark.parametrize(
    "case", ["short", "no-game", "reused", "revoked", "bad-token", "maintenance"]
)
async def test_each_refusal_is_the_steps_and_writes_nothing(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    await seed(app)
    by_statement = await _refusal(client, app, case)
    steps_only(monkeypatch)
    by_steps = await _refusal(client, app, case)
    assert by_statement == by_steps
    assert 400 <= by_statement[0] < 500, by_statement


async def test_an_excluded_member_is_refused_and_recorded_by_the_steps(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await seed(app)
    token, mid = await past_first(client, app, 20_00)
    async with app.state.sessionmaker() as session:
        await session.execute(
            update(Member)
            .where(Member.id == mid)
            .values(excluded_until=utcnow() + timedelta(days=1))
        )
        await session.commit()
    refused = await move(client, token, 5, key="while-excluded")
    assert refused.json()["message"] == "PLAY_EXCLUDED", refused.text
    assert await count(app, ProtectionHit, ProtectionHit.member_id == mid) == 1


async def test_concurrent_retries_of_one_intent_move_once(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await seed(app)
    token, mid = await past_first(client, app, 20_00)
    answers = await asyncio.gather(*(move(client, token, 5, key="one") for _ in range(20)))
    assert {r.status_code for r in answers} == {200}, [r.text for r in answers]
    assert len({r.json()["transfers"][0]["transferId"] for r in answers}) == 1
    assert await wallet_minor(app, mid) == 14_00
    await assert_books_balance(app)


async def test_concurrent_transfers_cannot_overdraw(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await seed(app)
    token, mid = await past_first(client, app, 21_00)
    answers = await asyncio.gather(*(move(client, token, 10, key=f"intent-{i}") for i in range(30)))
    outcomes = sorted((r.status_code, r.json().get("message")) for r in answers)
    assert outcomes.count((200, None)) == 2, outcomes
    assert outcomes.count((400, "MONEY_NOT_ENOUGH")) == 28, outcomes
    assert await wallet_minor(app, mid) == 0
    assert await count(app, IdempotencyRecord, IdempotencyRecord.owner == f"member:{mid}") == 2
    await assert_books_balance(app)


async def _back_refusal(client: httpx.AsyncClient, app: FastAPI, case: str) -> tuple[int, Any]:
    token, mid = await past_first(client, app, 20_00)
    assert (await move(client, token, 10)).status_code == 200
    game, key = "JOKER", f"back-refused-{case}"
    if case == "no-game":
        game = "NOSUCHGAME"
    if case == "reused":
        assert (await back(client, token, 2, key=key)).status_code == 200
    if case == "bonus":
        await give_active_bonus(app, mid)
    transfers_before = await count(app, GameTransfer, GameTransfer.member_id == mid)
    keys = await count(app, IdempotencyRecord, IdempotencyRecord.owner == f"member:{mid}")
    response = await back(client, token, 3, key=key, game=game)
    assert await count(app, GameTransfer, GameTransfer.member_id == mid) == transfers_before
    assert await count(app, IdempotencyRecord, IdempotencyRecord.owner == f"member:{mid}") == keys
    return response.status_code, response.json()


@pytest.mark.parametrize("case", ["no-game", "reused", "bonus"])
async def test_each_game_to_wallet_refusal_is_the_steps_and_writes_nothing(
    client: httpx.AsyncClient, app: FastAPI, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    await seed(app)
    by_statement = await _back_refusal(client, app, case)
    steps_only(monkeypatch)
    by_steps = await _back_refusal(client, app, case)
    assert by_statement == by_steps
    assert 400 <= by_statement[0] < 500, by_statement
