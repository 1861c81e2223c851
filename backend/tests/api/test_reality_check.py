"""The reality check through the API, on SQLite and PostgreSQL: the member chooses an interval
(or off) among those offered; the check answers when the login began and the net result from
play since then — transfers to and from games and seamless bets, not deposits or bonuses."""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from pao.games.seamless import core
from pao.kit.clock import clock
from pao.kit.money import Currency
from tests.api.test_games_transfers import _transfer
from tests.games_support import activate, funded_member, seed
from tests.helpers import app_of, auth

pytestmark = pytest.mark.sqlite

PATH = "/api/protection/reality-check"


async def test_the_interval_is_chosen_among_those_offered(client: httpx.AsyncClient) -> None:
    token, _ = await funded_member(client, 0)
    assert (await client.get("/api/protection", headers=auth(token))).json()[
        "realityCheckMinutes"
    ] is None
    chosen = await client.put(PATH, json={"minutes": 30}, headers=auth(token))
    assert chosen.status_code == 200, chosen.text
    assert chosen.json()["realityCheckMinutes"] == 30
    assert (await client.get(PATH, headers=auth(token))).json()["minutes"] == 30
    odd = await client.put(PATH, json={"minutes": 20}, headers=auth(token))
    assert (odd.status_code, odd.json()) == (
        400,
        {"message": "PROTECTION_CHANGE_REFUSED", "field": "minutes"},
    )
    for bad in ({"minutes": 5}, {"minutes": 100000}, {"minutes": "x"}, {"minutes": 1.5}):
        refused = await client.put(PATH, json=bad, headers=auth(token))
        assert refused.status_code == 422, (bad, refused.text)
    off = await client.put(PATH, json={"minutes": None}, headers=auth(token))
    assert off.json()["realityCheckMinutes"] is None
    assert (await client.put(PATH, json={"minutes": 120}, headers=auth(token))).status_code == 200
    assert (await client.get(PATH)).status_code == 401


async def test_the_net_result_counts_play_since_login_only(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)
    token, member_id = await funded_member(client, 500_00)  # a deposit: not play
    await activate(client, token, "JOKER")
    start = (await client.get(PATH, headers=auth(token))).json()
    assert (start["net"], start["currency"]) == (0, "THB")

    clock.advance(timedelta(minutes=31))
    assert (await _transfer(client, token, "WALLET", "JOKER", 40.5)).status_code == 200
    assert (await _transfer(client, token, "JOKER", "WALLET", 10)).status_code == 200
    move = core.Move("hub88", "rc-bet-1", member_id, Currency.THB, "rc-r1", "g", amount=5_00)
    sessionmaker = app_of(client).state.sessionmaker
    outcome = await core.run(sessionmaker, lambda session: core.bet(session, move))
    assert outcome.ok, outcome
    win = core.Move(
        "hub88",
        "rc-win-1",
        member_id,
        Currency.THB,
        "rc-r1",
        "g",
        amount=2_00,
        reference_id="rc-bet-1",
    )
    assert (await core.run(sessionmaker, lambda session: core.win(session, win))).ok

    later = (await client.get(PATH, headers=auth(token))).json()
    assert later["loginAt"] == start["loginAt"]
    assert later["now"] > start["now"]
    assert later["net"] == -33.5  # -40.50 + 10 - 5 + 2
