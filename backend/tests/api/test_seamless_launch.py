"""A seamless game as a member plays it: the lobby card (no account, no transfer), the synced
catalogue, the launch link with a fresh token, and rounds played on the sandbox aggregator's
page, whose signed calls move the wallet; its fault switches move money at most once."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select, update

from pao.games.catalogue import DEMO_GAMES, SEAMLESS_DEMO_GAMES, seed_games
from pao.games.seamless.hub88.games_api import Hub88Error, _sync_tick, game_url, sync_games
from pao.games.seamless.models import SeamlessGame, SeamlessRound
from pao.kit.clock import utcnow
from pao.ledger.service import check_books
from tests.games_support import funded_member
from tests.helpers import auth

pytestmark = pytest.mark.sqlite


async def _lobby(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        await seed_games(session)
        await seed_games(session, SEAMLESS_DEMO_GAMES, first_order=len(DEMO_GAMES))
        await sync_games(app, session)
        await session.commit()


async def _launch(client: httpx.AsyncClient, token: str, game: str) -> dict[str, str]:
    response = await client.get(f"/api/autoLogin/hub88/{game}", headers=auth(token))
    assert response.status_code == 200, response.text
    link = httpx.URL(response.json()["link"])
    assert link.path == "/sandbox/hub88/play"
    return dict(link.params)


async def _round(client: httpx.AsyncClient, launched: dict[str, str], **fields: Any) -> Any:
    body = {k: launched[k] for k in ("user", "token", "game_code", "currency")}
    response = await client.post("/sandbox/hub88/play/round", json={**body, **fields})
    assert response.status_code == 200, response.text
    return response.json()


async def _wallet(client: httpx.AsyncClient, token: str) -> dict[str, Any]:
    body: dict[str, Any] = (await client.get("/api/wallet", headers=auth(token))).json()
    return body


async def test_a_member_plays_a_seamless_slot_from_the_wallet(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await _lobby(app)
    token, _ = await funded_member(client, 100_000)
    card = next(s for s in (await _wallet(client, token))["slots"] if s["code"] == "HUB88")
    assert (card["mode"], card["amount"], card["isActive"]) == ("seamless", 0, False)
    games = (await client.get("/api/games/seamless/HUB88", headers=auth(token))).json()["games"]
    assert {g["gameCode"] for g in games} == {"sbx_lucky_reels", "sbx_baccarat"}

    launched = await _launch(client, token, "sbx_lucky_reels")
    page = await client.get("/sandbox/hub88/play", params=launched)
    assert page.status_code == 200
    assert "Lucky Reels" in page.text
    assert "1000.00" in page.text

    played = await _round(client, launched, stake=1_000)
    assert played["status"] == "RS_OK"
    wallet = await _wallet(client, token)
    assert played["balance"] == 100_000 - 1_000 + played["payout"]
    assert wallet["wallet"]["amount"] * 100 == pytest.approx(played["balance"])
    lines = (
        await client.post("/api/statement", json={"page": 1, "limit": 10}, headers=auth(token))
    ).json()["statements"]
    moves = [(line["from"], line["to"], line["amount"]) for line in lines[::-1][1:]]
    won = [("HUB88", "WALLET", played["payout"] / 100)] if played["payout"] else []
    assert moves == [("WALLET", "HUB88", 10.0), *won]
    async with app.state.sessionmaker() as session:
        rounds = (await session.execute(select(SeamlessRound))).scalars().all()
        assert [(r.bets, r.wins, r.closed_at is not None) for r in rounds] == [
            (1_000, played["payout"], True)
        ]
        assert (await check_books(session)).balanced


class _Recorder(httpx.AsyncBaseTransport):
    """Passes Pao's outbound calls on to the in-process sandbox, keeping each request."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.sent: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        return await self.inner.handle_async_request(request)


@pytest.mark.parametrize(("asked", "sent"), [("th", "th"), ("la", "lo"), ("en", "en")])
async def test_the_launch_asks_hub88_in_the_members_language(
    app: FastAPI, client: httpx.AsyncClient, asked: str, sent: str
) -> None:
    await _lobby(app)
    token, _ = await funded_member(client, 10_000)
    recorder = _Recorder(app.state.http_transport)
    real = app.state.http
    app.state.http = httpx.AsyncClient(transport=recorder)
    try:
        response = await client.get(
            "/api/autoLogin/hub88/sbx_lucky_reels", params={"lang": asked}, headers=auth(token)
        )
    finally:
        await app.state.http.aclose()
        app.state.http = real
    assert response.status_code == 200, response.text
    [game_url] = [r for r in recorder.sent if r.url.path.endswith("/v2/game/url")]
    # Hub88's Games API takes an ISO 639-1 code (providers.md §1): Lao is "lo", not Pao's "la".
    assert json.loads(game_url.content)["lang"] == sent
    assert httpx.URL(response.json()["link"]).params["lang"] == sent


async def test_the_sandbox_aggregator_refuses_a_malformed_lang(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    def launch(lang: Any) -> Any:
        return game_url(
            app,
            user="m0001",
            token="t" * 20,
            game_code="sbx_lucky_reels",
            currency="THB",
            country="TH",
            lang=lang,
            mobile=False,
            lobby_url="/user/home",
        )

    assert (await launch("lo")).startswith("http")
    for bad in ("Language(locale='th', fallback='th')", "TH", "tha", ""):
        with pytest.raises(Hub88Error, match="400") as refused:
            await launch(bad)
        assert refused.value.status == 400


async def test_faults_move_money_at_most_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    await _lobby(app)
    token, _ = await funded_member(client, 50_000)
    launched = await _launch(client, token, "sbx_baccarat")

    timed_out = await _round(client, launched, stake=1_000, fault="timeout")
    assert timed_out["log"][-1].startswith("time-out, rollback: RS_OK")
    assert timed_out["balance"] == 50_000  # the one bet was rolled back

    early = await _round(client, launched, stake=1_000, fault="rollback_first")
    assert early["log"][1] == "bet 1000: RS_ERROR_TRANSACTION_ROLLED_BACK"
    assert early["balance"] == 50_000

    twice = await _round(client, launched, stake=1_000, side_stake=500, fault="duplicate")
    assert twice["status"] == "RS_OK"
    assert twice["balance"] == 50_000 - 1_500 + twice["payout"]

    before = twice["balance"]
    burst = await _round(client, launched, stake=1_000, fault="burst")
    taken = int(burst["log"][0].split()[1])
    assert burst["balance"] == before - taken * 1_000 + burst["payout"]
    async with app.state.sessionmaker() as session:
        assert (await check_books(session)).balanced


async def test_no_account_no_transfer_and_the_game_list_limit(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await _lobby(app)
    token, _ = await funded_member(client, 10_000)
    activate = await client.get("/api/wallet/activate/HUB88", headers=auth(token))
    assert activate.json() == {"message": "NO_GAME"}
    unknown = await client.get("/api/autoLogin/hub88/nope", headers=auth(token))
    assert unknown.status_code == 404
    assert (await client.get("/api/autoLogin/hub88/sbx_baccarat")).status_code == 401
    async with app.state.sessionmaker() as session:
        with pytest.raises(Hub88Error, match="429"):  # Hub88: one game list a minute
            await sync_games(app, session)
        games = (await session.execute(select(SeamlessGame))).scalars().all()
        assert len(games) == 2


async def test_the_sync_job_asks_hourly_within_the_minute_limit(app: FastAPI) -> None:
    def refused(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("nobody listens yet", request=request)  # the first seconds

    http = app.state.http
    app.state.http = httpx.AsyncClient(transport=httpx.MockTransport(refused))
    assert await _sync_tick(app) == 0
    assert getattr(app.state, "hub88_list_asked_at", None) is None  # not reached: try again
    app.state.http = http
    assert await _sync_tick(app) == 2
    assert await _sync_tick(app) == 0  # asked within the minute
    app.state.hub88_list_asked_at -= 61
    assert await _sync_tick(app) == 0  # the catalogue is fresh
    async with app.state.sessionmaker() as session:
        await session.execute(update(SeamlessGame).values(synced_at=utcnow() - timedelta(hours=2)))
        await session.commit()
    app.state.sandbox_hub88_listed_at -= 61  # the sandbox's own one-a-minute memory
    assert await _sync_tick(app) == 2
