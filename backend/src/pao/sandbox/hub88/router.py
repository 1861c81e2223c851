"""The sandbox aggregator's routes (Hub88's side of the seamless wallet).

* ``POST /sandbox/hub88/operator/generic/v2/game/list`` and ``…/game/url``: Hub88's Games API,
  the caller's ``X-Hub88-Signature`` checked (401 otherwise), the list limited to one call a
  minute (429 ``Too Many Requests``, as Hub88 documents), a launch's ``lang`` that is not an
  ISO 639-1 code refused (400, Hub88's answer to bad parameters).
* ``GET /sandbox/hub88/play``: the launched game's page. A slot (one bet, one win per spin) or
  a table game (two bets in one round, then one win), played by ``POST /sandbox/hub88/play/…``,
  which calls Pao's ``/api/hub88/…`` as Hub88 would. A fault switch makes a round misbehave
  the way a real aggregator does: ``timeout`` (Pao took the bet, the aggregator did not hear it
  and rolls it back), ``duplicate`` (every call sent twice), ``rollback_first`` (the rollback
  overtakes its bet), ``burst`` (ten bets at once).

The page's outcome is drawn on the server; the player's money is only ever what Pao answers.
"""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
import uuid
from typing import Any, Literal
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from pydantic import Field

from pao.core.params import RequestModel
from pao.core.settings import Settings
from pao.games.seamless.hub88.signature import (
    HEADER,
    SANDBOX_PRIVATE_KEY,
    SANDBOX_PUBLIC_KEY,
    load_private,
    load_public,
    sign,
    verify,
)
from pao.sandbox.hub88.pages import play_page

router = APIRouter(prefix="/sandbox/hub88", include_in_schema=False)

_HUB88_KEY = load_private(str(SANDBOX_PRIVATE_KEY))
_OPERATOR_KEY = load_public(str(SANDBOX_PUBLIC_KEY))
LIST_EVERY_SECONDS = 60.0
# ``lang`` is an ISO 639-1 code: two lowercase letters. (Whether Hub88 requires it is not
# documented where Pao read it: absent is accepted.)
_LANG = re.compile(r"[a-z]{2}")

# The aggregator's catalogue: Hub88's game list entries (providers.md §1, Games API).
GAMES: tuple[dict[str, Any], ...] = (
    {
        "game_code": "sbx_lucky_reels",
        "name": "Lucky Reels",
        "product": "sandbox",
        "category": "Video Slots",
        "platforms": ["GPL_DESKTOP", "GPL_MOBILE"],
        "url_thumb": "/games/hub88-bg.svg",
        "supplier_identifier": {"game_id": 1, "game_code": "lucky_reels"},
    },
    {
        "game_code": "sbx_baccarat",
        "name": "Baccarat",
        "product": "sandbox",
        "category": "Table Games",
        "platforms": ["GPL_DESKTOP", "GPL_MOBILE"],
        "url_thumb": "/games/hub88-bg.svg",
        "supplier_identifier": {"game_id": 2, "game_code": "baccarat"},
    },
)
_TABLE_GAMES = {"sbx_baccarat"}
_NAMES = {game["game_code"]: str(game["name"]) for game in GAMES}


async def _signed_body(request: Request) -> dict[str, Any] | None:
    raw = await request.body()
    if not verify(_OPERATOR_KEY, raw, request.headers.get(HEADER)):
        return None
    try:
        body = json.loads(raw)
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


@router.post("/operator/generic/v2/game/list")
async def game_list(request: Request) -> Response:
    if await _signed_body(request) is None:
        return JSONResponse({"error": "Invalid signature"}, status_code=401)
    now = time.monotonic()
    last: float | None = getattr(request.app.state, "sandbox_hub88_listed_at", None)
    if last is not None and now - last < LIST_EVERY_SECONDS:
        return PlainTextResponse("Too Many Requests", status_code=429)
    request.app.state.sandbox_hub88_listed_at = now
    return JSONResponse(list(GAMES))


@router.post("/operator/generic/v2/game/url")
async def game_url(request: Request) -> Response:
    body = await _signed_body(request)
    if body is None:
        return JSONResponse({"error": "Invalid signature"}, status_code=401)
    if body.get("game_code") not in _NAMES:
        return JSONResponse({"error": "Game not found"}, status_code=404)
    lang = body.get("lang")
    if lang is not None and not (isinstance(lang, str) and _LANG.fullmatch(lang)):
        # Hub88 answers bad parameters 400 (providers.md §1): a launch with anything but a
        # language code must fail here as it would there, not play on.
        return JSONResponse({"error": "Invalid lang"}, status_code=400)
    settings: Settings = request.app.state.settings
    query = urlencode(
        {
            k: str(body.get(k) or "")
            for k in ("user", "token", "game_code", "currency", "lobby_url", "lang")
        }
    )
    return JSONResponse({"url": f"{settings.base_url}/sandbox/hub88/play?{query}"})


@router.get("/play")
async def play(
    request: Request, user: str, token: str, game_code: str, currency: str, lobby_url: str = ""
) -> HTMLResponse:
    balance = await _wallet(request, "/user/balance", _common(user, token, game_code))
    return HTMLResponse(
        play_page(
            game=_NAMES.get(game_code, game_code),
            table=game_code in _TABLE_GAMES,
            session={"user": user, "token": token, "game_code": game_code, "currency": currency},
            balance=int(balance.get("balance") or 0),
            lobby_url=lobby_url if lobby_url.startswith("/") else "",
        )
    )


def _common(user: str, token: str, game_code: str) -> dict[str, Any]:
    return {"user": user, "token": token, "game_code": game_code, "request_uuid": str(uuid.uuid4())}


async def _wallet(request: Request, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """One call to Pao's Wallet API, signed as Hub88 signs it."""
    settings: Settings = request.app.state.settings
    raw = json.dumps(body).encode()
    response = await request.app.state.http.post(
        f"{settings.base_url}/api/hub88{path}",
        content=raw,
        headers={"Content-Type": "application/json", HEADER: sign(_HUB88_KEY, raw)},
    )
    answer: dict[str, Any] = response.json()
    return answer


class RoundIn(RequestModel):
    user: str = Field(max_length=40)
    token: str = Field(max_length=255)
    game_code: str = Field(max_length=100)
    currency: str = Field(min_length=3, max_length=3)
    stake: int = Field(gt=0, le=10_000_000)  # minor units
    # The table game's second bet (on a tie), in the same round.
    side_stake: int = Field(default=0, ge=0, le=10_000_000)
    fault: Literal["none", "timeout", "duplicate", "rollback_first", "burst"] = "none"


def _txn(body: RoundIn, round_id: str, amount: int, **fields: Any) -> dict[str, Any]:
    return {
        **_common(body.user, body.token, body.game_code),
        "transaction_uuid": str(uuid.uuid4()),
        "supplier_transaction_id": str(uuid.uuid4()),
        "supplier_user": f"sbx_{body.user}",
        "round": round_id,
        "round_closed": False,
        "reward_uuid": None,
        "is_free": False,
        "is_aggregated": False,
        "currency": body.currency,
        "bet": "spin",
        "amount": amount * 1000,  # Hub88's unit: 1/100000 of the currency
        "meta": {},
        **fields,
    }


async def _send(request: Request, path: str, body: dict[str, Any], fault: str) -> dict[str, Any]:
    answer = await _wallet(request, path, body)
    if fault == "duplicate":  # the same call again (a retry after a lost answer)
        answer = await _wallet(request, path, {**body, "request_uuid": str(uuid.uuid4())})
    return answer


def _rollback(bet: dict[str, Any]) -> dict[str, Any]:
    return {
        **_common(bet["user"], bet["token"], bet["game_code"]),
        "transaction_uuid": str(uuid.uuid4()),
        "reference_transaction_uuid": bet["transaction_uuid"],
        "round": bet["round"],
        "round_closed": True,
        "supplier_transaction_id": str(uuid.uuid4()),
        "meta": {},
    }


@router.post("/play/round")
async def play_round(body: RoundIn, request: Request) -> JSONResponse:
    """One round: bets, then the win (0 for a loss), each a signed call to Pao's wallet."""
    round_id = "sbx-" + uuid.uuid4().hex[:16]
    stakes = [body.stake] + ([body.side_stake] if body.side_stake else [])
    bets = [_txn(body, round_id, stake) for stake in stakes]
    log: list[str] = []
    if body.fault == "rollback_first":
        early = await _wallet(request, "/transaction/rollback", _rollback(bets[0]))
        log.append(f"rollback before bet: {early['status']}")
    if body.fault == "burst":
        burst = [_txn(body, round_id, body.stake) for _ in range(10)]
        answers = await asyncio.gather(*(_wallet(request, "/transaction/bet", b) for b in burst))
        taken = [b for b, a in zip(burst, answers, strict=True) if a["status"] == "RS_OK"]
        log.append(f"burst: {len(taken)} of 10 bets taken")
        bets = taken or bets[:1]
    placed: list[dict[str, Any]] = []
    answer: dict[str, Any] = {}
    for bet in bets if body.fault != "burst" else []:
        answer = await _send(request, "/transaction/bet", bet, body.fault)
        log.append(f"bet {bet['amount'] // 1000}: {answer['status']}")
        if answer["status"] != "RS_OK":
            break
        placed.append(bet)
    if body.fault == "burst":
        placed = bets
    if body.fault == "timeout" and placed:
        # Pao answered, the aggregator did not hear it: it rolls the bet back.
        answer = await _wallet(request, "/transaction/rollback", _rollback(placed[0]))
        log.append(f"time-out, rollback: {answer['status']}")
        placed = placed[1:]
    staked = sum(int(bet["amount"]) // 1000 for bet in placed)
    payout = _draw(body, staked) if placed else 0
    if placed:
        win = _txn(
            body,
            round_id,
            payout,
            round_closed=True,
            reference_transaction_uuid=placed[0]["transaction_uuid"],
        )
        answer = await _send(request, "/transaction/win", win, body.fault)
        log.append(f"win {payout}: {answer['status']}")
    balance = await _wallet(
        request, "/user/balance", _common(body.user, body.token, body.game_code)
    )
    return JSONResponse(
        {
            "round": round_id,
            "staked": staked,
            "payout": payout,
            "status": answer.get("status", "RS_OK"),
            "balance": int(balance.get("balance") or 0) // 1000,
            "log": log,
        }
    )


def _draw(body: RoundIn, staked: int) -> int:
    """What the round pays: a slot pays 0, 2× or 5× the stake; the table 2× the main bet or 8×
    the side bet on a tie."""
    chance = secrets.randbelow(100)
    if body.game_code in _TABLE_GAMES:
        if chance < 10:
            return body.side_stake * 8 or body.stake
        return body.stake * 2 if chance < 55 else 0
    if chance < 10:
        return staked * 5
    return staked * 2 if chance < 40 else 0
