"""game_results: turnover and payout read back from the providers' bet records."""

from __future__ import annotations

import re
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from pao.games.turnover import game_results
from pao.kit.clock import utcnow
from tests.games_support import activate, funded_member, seed
from tests.helpers import auth

# Also on SQLite (tests/databases.py): turnover counted as transfers settle.
pytestmark = pytest.mark.sqlite


async def _play(
    client: httpx.AsyncClient, token: str, code: str, spins: int, bet: int
) -> tuple[int, int]:
    creds = (await client.get(f"/api/wallet/account/{code}", headers=auth(token))).json()
    location = (await client.post(f"/sandbox/games/login/{code}", data=creds)).headers["location"]
    session_token = re.sub(r".*/play/", "", location)
    staked = won = 0
    for _ in range(spins):
        body = (
            await client.post(f"/sandbox/games/play/{session_token}/spin", json={"bet": bet})
        ).json()
        staked += body["bet"]
        won += body["payout"]
    return staked, won


async def test_game_results_sum_every_account(app: FastAPI, client: httpx.AsyncClient) -> None:
    await seed(app)
    token, mid = await funded_member(client, 200_00)
    other, _ = await funded_member(client, 50_00)
    start = utcnow() - timedelta(seconds=1)
    for code in ("JOKER", "PG"):
        await activate(client, token, code)
        response = await client.post(
            "/api/wallet/transfer",
            json={"from": "WALLET", "to": code, "amount": 100},
            headers=auth(token),
        )
        assert response.status_code == 200
    await activate(client, other, "JOKER")
    await client.post(
        "/api/wallet/transfer",
        json={"from": "WALLET", "to": "JOKER", "amount": 50},
        headers=auth(other),
    )
    joker = await _play(client, token, "JOKER", 4, 100)
    pg = await _play(client, token, "PG", 3, 500)
    await _play(client, other, "JOKER", 2, 100)  # someone else's bets do not count

    async with app.state.sessionmaker() as session:
        results = await game_results(
            app, session, member_id=mid, since=start, until=utcnow() + timedelta(seconds=1)
        )
    assert results.turnover == joker[0] + pg[0] == 4 * 100 + 3 * 500
    assert results.payout == joker[1] + pg[1]
    assert results.bets == 7
    assert results.by_game["JOKER"].turnover == 400
    assert results.net_loss == results.turnover - results.payout

    async with app.state.sessionmaker() as session:
        before = await game_results(
            app, session, member_id=mid, since=start - timedelta(hours=1), until=start
        )
    assert before.turnover == 0
    assert before.bets == 0
