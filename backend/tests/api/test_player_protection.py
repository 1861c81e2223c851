"""Player protection through the API, on SQLite and PostgreSQL: deposit limits (a decrease at
once, a raise after 24 hours, deposits over the limit refused before any money), time-outs and
self-exclusion (no deposit, game, seamless bet or bonus; withdrawals open; never shorter; a
self-exclusion ends 24 hours after the member asks, once its period is over)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pao.backoffice.staff.roles import Role
from pao.games.seamless import core
from pao.identity.models import Member
from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.payments.accounts import seed_receiving_accounts
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import record_statement
from tests.games_support import funded_member
from tests.helpers import DEFAULT_PASSWORD, app_of, auth, login, register_and_login
from tests.staff_helpers import add_staff, bearer, open_token

pytestmark = pytest.mark.sqlite


async def _member(client: httpx.AsyncClient, minor: int = 0) -> tuple[str, int]:
    async with app_of(client).state.sessionmaker() as session:
        await seed_receiving_accounts(session)
        await session.commit()
    return await funded_member(client, minor)


async def _state(client: httpx.AsyncClient, token: str) -> dict[str, Any]:
    response = await client.get("/api/protection", headers=auth(token))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _limit(state: dict[str, Any], period: str) -> dict[str, Any]:
    found: dict[str, Any] = next(x for x in state["limits"] if x["period"] == period)
    return found


async def _qr(client: httpx.AsyncClient, token: str, amount: float) -> httpx.Response:
    return await client.post("/api/qrcode/KBANK", json={"amount": amount}, headers=auth(token))


async def _deposited(client: httpx.AsyncClient, member_id: int, minor: int) -> None:
    """A credited deposit, as the deposit paths record it (the limit counts these lines)."""
    async with app_of(client).state.sessionmaker() as session:
        await record_statement(
            session,
            member_id=member_id,
            statement_type=StatementType.DEPOSIT,
            status=StatementStatus.SUCCESS,
            amount=minor,
            currency=Currency.THB,
            from_label="KBANK",
            to_label="WALLET",
            ref_type="test_deposit",
            ref_id=f"{member_id}-{minor}-{clock.now().timestamp()}",
        )
        await session.commit()


async def test_deposit_limits_lower_at_once_and_raise_after_a_day(
    client: httpx.AsyncClient,
) -> None:
    token, member_id = await _member(client)
    set_limits = await client.put(
        "/api/protection/limits",
        json={"day": 1000, "week": None, "month": None},
        headers=auth(token),
    )
    assert set_limits.status_code == 200, set_limits.text
    assert _limit(set_limits.json(), "day")["amount"] == 1000
    await _deposited(client, member_id, 80_000)  # 800 baht today

    over = await _qr(client, token, 300)
    assert over.status_code == 400
    assert over.json() == {"message": "DEPOSIT_LIMIT_REACHED", "remaining": 200.0}
    assert (await _qr(client, token, 200)).status_code == 200

    raised = await client.put("/api/protection/limits", json={"day": 5000}, headers=auth(token))
    day = _limit(raised.json(), "day")
    assert (day["amount"], day["pending"], day["remaining"]) == (1000, 5000, 200)
    assert (await _qr(client, token, 300)).status_code == 400  # not before 24 hours
    clock.advance(timedelta(hours=12))
    again = await client.put(
        "/api/protection/limits", json={"day": 5000, "week": None}, headers=auth(token)
    )
    assert _limit(again.json(), "day")["pendingFrom"] == day["pendingFrom"]
    clock.advance(timedelta(hours=12, minutes=1))
    day = _limit(await _state(client, token), "day")
    assert (day["amount"], day["pending"]) == (5000, None)  # 24 hours after the first ask
    assert (await _qr(client, token, 300)).status_code == 200

    # A raise asked and regretted: back to the limit in force cancels it at once.
    await client.put("/api/protection/limits", json={"day": 9000}, headers=auth(token))
    back = await client.put("/api/protection/limits", json={"day": 5000}, headers=auth(token))
    day = _limit(back.json(), "day")
    assert (day["amount"], day["pending"], day["pendingFrom"]) == (5000, None, None)
    clock.advance(timedelta(hours=25))
    assert _limit(await _state(client, token), "day")["amount"] == 5000

    lowered = await client.put("/api/protection/limits", json={"day": 100}, headers=auth(token))
    assert _limit(lowered.json(), "day")["amount"] == 100  # at once
    bad = await client.put("/api/protection/limits", json={"day": 0}, headers=auth(token))
    assert bad.json()["message"] == "PROTECTION_CHANGE_REFUSED"


async def test_a_time_out_closes_money_in_and_play_but_not_withdrawals(
    client: httpx.AsyncClient,
) -> None:
    token, member_id = await _member(client, 50_000)
    took = await client.post(
        "/api/protection/exclusion", json={"kind": "timeout", "days": 2}, headers=auth(token)
    )
    assert took.status_code == 200, took.text
    assert took.json()["excluded"] is True
    assert took.json()["exclusion"]["kind"] == "timeout"

    refused = [
        await _qr(client, token, 100),
        await client.post(
            "/api/wallet/transfer",
            json={"from": "WALLET", "to": "JOKER", "amount": 10},
            headers=auth(token),
        ),
        await client.get("/api/bonus/activate/ANY", headers=auth(token)),
        await client.post("/api/spinwheel/spin", headers=auth(token)),
        await client.get("/api/autoLogin/hub88/sbx_lucky_reels", headers=auth(token)),
    ]
    assert [(r.status_code, r.json()["message"]) for r in refused] == [(403, "PLAY_EXCLUDED")] * 5
    withdrawal = await client.post(
        "/api/wallet/withdraw", json={"amount": 100}, headers=auth(token)
    )
    assert withdrawal.status_code == 200, withdrawal.text

    shorter = await client.post(
        "/api/protection/exclusion", json={"kind": "timeout", "days": 1}, headers=auth(token)
    )
    assert shorter.json()["message"] == "PROTECTION_CHANGE_REFUSED"
    async with app_of(client).state.sessionmaker() as session:
        member = await session.get(Member, member_id)
        assert member is not None
        move = core.Move("hub88", "t-1", member_id, Currency.THB, "r-1", "g", amount=100)
        outcome = await core.bet(session, move)
    assert outcome.status is core.Status.USER_DISABLED

    clock.advance(timedelta(days=2, minutes=1))
    assert (await _state(client, token))["excluded"] is False
    assert (await _qr(client, token, 100)).status_code == 200


async def test_self_exclusion_ends_only_after_its_period_and_a_day_on_request(
    client: httpx.AsyncClient,
) -> None:
    await _member(client)
    phone, token = await register_and_login(client)
    took = await client.post(
        "/api/protection/exclusion",
        json={"kind": "self_exclusion", "days": 182},
        headers=auth(token),
    )
    assert took.json()["exclusion"]["until"] is None  # not before the member asks
    early = await client.post("/api/protection/exclusion/end", headers=auth(token))
    assert early.json()["message"] == "PROTECTION_CHANGE_REFUSED"
    timeout = await client.post(
        "/api/protection/exclusion", json={"kind": "timeout", "days": 30}, headers=auth(token)
    )
    assert timeout.json()["message"] == "PROTECTION_CHANGE_REFUSED"  # would shorten it

    clock.advance(timedelta(days=183))
    token = await login(client, phone, DEFAULT_PASSWORD)  # an excluded member still logs in
    state = await _state(client, token)
    assert state["excluded"] is True
    assert state["exclusion"]["canRequestEnd"] is True
    asked = await client.post("/api/protection/exclusion/end", headers=auth(token))
    assert asked.json()["exclusion"]["until"] is not None
    clock.advance(timedelta(hours=23))
    assert (await _qr(client, token, 100)).json()["message"] == "PLAY_EXCLUDED"
    clock.advance(timedelta(hours=1, minutes=1))
    assert (await _state(client, token))["excluded"] is False
    assert (await _qr(client, token, 100)).status_code == 200


async def test_invalid_lengths_are_refused(client: httpx.AsyncClient) -> None:
    token, _ = await _member(client)
    for body in (
        {"kind": "timeout", "days": 31},
        {"kind": "self_exclusion", "days": 30},
    ):
        answer = await client.post("/api/protection/exclusion", json=body, headers=auth(token))
        assert answer.json()["message"] == "PROTECTION_CHANGE_REFUSED", body
    zero = {"kind": "timeout", "days": 0}
    answer = await client.post("/api/protection/exclusion", json=zero, headers=auth(token))
    assert (answer.status_code, answer.json()) == (422, {"message": "KEY_INVALID", "field": "days"})
    assert (await _state(client, token))["excluded"] is False


async def test_staff_read_the_limits_their_history_and_the_exclusions(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    token, member_id = await _member(client)
    await client.put("/api/protection/limits", json={"day": 1000}, headers=auth(token))
    await client.put("/api/protection/limits", json={"day": 3000}, headers=auth(token))
    await client.post(
        "/api/protection/exclusion", json={"kind": "timeout", "days": 3}, headers=auth(token)
    )
    viewer = bearer(await open_token(app, await add_staff(app, role=Role.VIEWER)))
    path = f"/api/backoffice/members/{member_id}/protection"
    answer = await client.get(path, headers=viewer)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["excludedUntil"] is not None
    assert [(e["kind"], e["endsAt"] is not None) for e in body["exclusions"]] == [("timeout", True)]
    day = next(x for x in body["limits"] if x["period"] == "day")
    assert (day["amount"], day["pending"]) == (1000, 3000)
    assert [(c["period"], c["amount"]) for c in body["limitChanges"]] == [
        ("day", 3000),
        ("day", 1000),
    ]
    assert (await client.get(path)).status_code == 401
    missing = await client.get("/api/backoffice/members/999999/protection", headers=viewer)
    assert missing.status_code == 404


async def test_a_loss_limit_counts_deposits_less_withdrawals(client: httpx.AsyncClient) -> None:
    token, member_id = await _member(client, 100_000)
    answer = await client.put(
        "/api/protection/loss-limits", json={"week": 1000}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text
    await _deposited(client, member_id, 90_000)  # 900 in: 100 of the 1000 loss remains
    week = next(x for x in answer.json()["lossLimits"] if x["period"] == "week")
    assert week["amount"] == 1000
    over = await _qr(client, token, 200)
    assert over.json() == {"message": "LOSS_LIMIT_REACHED", "remaining": 100.0}
    # A withdrawal brings the loss down: 900 in, 300 out, 600 lost.
    out = await client.post("/api/wallet/withdraw", json={"amount": 300}, headers=auth(token))
    assert out.status_code == 200, out.text
    assert (await _qr(client, token, 200)).status_code == 200
    await _deposited(client, member_id, 40_000)  # 1000 lost: nothing may go in or to play
    assert (await _qr(client, token, 1)).json()["message"] == "LOSS_LIMIT_REACHED"
    transfer = await client.post(
        "/api/wallet/transfer",
        json={"from": "WALLET", "to": "JOKER", "amount": 10},
        headers=auth(token),
    )
    assert transfer.json()["message"] == "LOSS_LIMIT_REACHED"
    async with app_of(client).state.sessionmaker() as session:
        move = core.Move("hub88", "t-2", member_id, Currency.THB, "r-2", "g", amount=100)
        assert (await core.bet(session, move)).status is core.Status.LIMIT_REACHED
    # Raising it waits out the day; the week rolls on.
    await client.put("/api/protection/loss-limits", json={"week": 5000}, headers=auth(token))
    assert (await _qr(client, token, 1)).json()["message"] == "LOSS_LIMIT_REACHED"
    clock.advance(timedelta(hours=24, minutes=1))
    assert (await _qr(client, token, 100)).status_code == 200
