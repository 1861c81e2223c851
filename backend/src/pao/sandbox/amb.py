"""The sandbox aggregator speaking AMB's Common Flow (shared/providers.md §2): game pages that
play by calling Pao's ``/api/amb/{product}/…`` callbacks as AMB would, signed with the
operator's signature key (``sapi-signature``).

* ``GET /sandbox/amb/play?username=…&currency=…&game=…``: the game's page for a member, named
  by Pao's AMB username (``m`` and the member id, :func:`pao.games.seamless.hub88.wire.user_of`),
  its balance from Pao's ``checkBalance``. AMB has no launch in Pao (its outbound launch API is
  not in providers.md, ADR 0025), so staff open it from the sandbox's index (``/sandbox``).
* ``POST /sandbox/amb/play/round``: a slot's round, ``placeBets`` then ``settleBets`` (or one
  single-state ``settleBets``, as PG SOFT sends).
* ``POST /sandbox/amb/play/table``: a baccarat round with several bets (player, banker, tie),
  each a txn of its own in one ``roundId``: the opening chip in one ``placeBets``, the others
  in a second (AMB batches txns); then one ``settleBets`` carrying every bet's ``payoutAmount``
  (stake + win; 0 for a lost bet), the last with ``isEndRound`` (Pao closes the round only
  then; a round called off ends with its last cancel the same way). Each bet has its own payout,
  so the settlement is ``BY_TRANSACTION``: ``BY_ROUND`` acts on the round as one (Pao maps it
  to the round's first bet) and cannot pay three bets three amounts.

Fault switches: ``timeout`` (Pao took the bets, the aggregator did not hear it and cancels
them), ``duplicate`` (every call sent twice), ``cancel_first`` (the cancel overtakes its bet),
``burst`` (the slot: ten bets in one call; the table: each bet its own call, all at once).

A table round Pao refuses a bet of (the batch stops at the refusal, earlier txns staying taken,
and the answer does not say which) is called off: every bet sent is cancelled, one call each,
so the round moves money exactly once or not at all. The outcome is drawn on the server (or
fixed with ``outcome``, for testers); the player's money is only ever what Pao answers.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
import uuid
from html import escape
from typing import Any, Literal, Self

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import Field, model_validator

from pao.core.params import RequestModel
from pao.core.settings import Settings
from pao.games.seamless.amb.signature import SIGNATURE, TIMESTAMP, sign
from pao.games.seamless.hub88.wire import member_of
from pao.kit.money import Currency
from pao.sandbox.games.pages import page
from pao.sandbox.seamless_page import BetField, game_page

router = APIRouter(prefix="/sandbox/amb", include_in_schema=False)

PRODUCT = "PGSOFT"  # the slot's product: PG SOFT, a single-state one (providers.md §2)
TABLE_PRODUCT = "SBXLIVE"  # the table's: a live casino of the sandbox's own

OK = 0
DUPLICATE = 20002
TAKEN = (OK, DUPLICATE)  # AMB's duplicate answer means "already done": the txn stands

Fault = Literal["none", "timeout", "duplicate", "cancel_first", "burst"]
Side = Literal["player", "banker", "tie"]
SIDES: tuple[Side, ...] = ("player", "banker", "tie")

# game code → (name, table game)
GAMES: dict[str, tuple[str, bool]] = {
    "lucky-reels": ("Lucky Reels", False),
    "baccarat": ("Baccarat", True),
}

_FAULTS = (
    ("none", "No fault"),
    ("timeout", "Time-out after Pao answered (cancel)"),
    ("duplicate", "Every call sent twice"),
    ("cancel_first", "Cancel overtakes the bet"),
    ("burst", "Burst of bets"),
)
_SLOT_BETS = (BetField("stake", "Bet"),)
_TABLE_BETS = (
    BetField("player", "Player", optional=True),
    BetField("banker", "Banker", optional=True, default=0),
    BetField("tie", "Tie", optional=True, default=0),
)


class RoundIn(RequestModel):
    username: str = Field(max_length=40)
    currency: str = Field(min_length=3, max_length=3)
    stake: int = Field(gt=0, le=10_000_000)  # minor units
    single_state: bool = False
    fault: Fault = "none"


class TableIn(RequestModel):
    username: str = Field(max_length=40)
    currency: str = Field(min_length=3, max_length=3)
    # Each side's stake in minor units; 0 = no bet there.
    player: int = Field(default=0, ge=0, le=10_000_000)
    banker: int = Field(default=0, ge=0, le=10_000_000)
    tie: int = Field(default=0, ge=0, le=10_000_000)
    outcome: Side | None = None  # unset: drawn
    fault: Fault = "none"

    @model_validator(mode="after")
    def _a_bet(self) -> Self:
        if not any(self.stakes()):
            raise ValueError("place at least one bet")
        return self

    def stakes(self) -> list[tuple[Side, int]]:
        return [(side, getattr(self, side)) for side in SIDES if getattr(self, side)]


async def _call(request: Request, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """One signed call to Pao, at the product's prefix (AMB mounts one per product)."""
    settings: Settings = request.app.state.settings
    raw = json.dumps(body).encode()
    stamp = str(int(time.time() * 1000))
    response = await request.app.state.http.post(
        f"{settings.base_url}/api/amb/{str(body['productId']).lower()}/{path}",
        content=raw,
        headers={
            "Content-Type": "application/json",
            TIMESTAMP: stamp,
            SIGNATURE: sign(settings, stamp, raw),
        },
    )
    answer: dict[str, Any] = response.json()
    return answer


def _header(username: str, currency: str, product: str) -> dict[str, Any]:
    """What every Common Flow call carries (providers.md §2)."""
    return {
        "id": str(uuid.uuid4()),
        "timestampMillis": int(time.time() * 1000),
        "productId": product,
        "currency": currency,
        "username": username,
    }


def _envelope(
    body: RoundIn | TableIn, *txns: dict[str, Any], product: str = PRODUCT
) -> dict[str, Any]:
    return {**_header(body.username, body.currency, product), "txns": list(txns)}


def _txn(round_id: str, status: str, stake: int, payout: int = 0, **fields: Any) -> dict[str, Any]:
    return {
        "id": "sbx-" + uuid.uuid4().hex[:12],
        "status": status,
        "roundId": round_id,
        "betAmount": stake / 100,
        "payoutAmount": payout / 100,
        "gameCode": "lucky-reels",
        "playInfo": "sandbox",
        "transactionType": "BY_TRANSACTION",
        **fields,
    }


async def _logged(
    request: Request, path: str, envelope: dict[str, Any], fault: str, log: list[str], what: str
) -> dict[str, Any]:
    """A call (twice under ``duplicate``); the first answer is the one that counts."""
    first = await _call(request, path, envelope)
    log.append(f"{what}: {first['statusCode']}")
    if fault == "duplicate":
        again = await _call(request, path, envelope)
        log.append(f"{what}, sent again: {again['statusCode']}")
    return first


async def _balance(request: Request, username: str, currency: str, product: str) -> dict[str, Any]:
    return await _call(request, "checkBalance", _header(username, currency, product))


def _minor(answer: dict[str, Any]) -> int:
    return round(float(answer.get("balance") or 0) * 100)


# --- the page -----------------------------------------------------------------------------


def _refused(reason: str) -> HTMLResponse:
    # The reason quotes what the caller sent: escaped, as any text on the page.
    return HTMLResponse(
        page("Cannot open the game", f"<h1>Cannot open the game</h1><p>{escape(reason)}</p>"),
        status_code=404,
    )


@router.get("/play", response_class=HTMLResponse)
async def play(
    request: Request,
    username: str = Query(max_length=40),
    currency: Currency = Query(),
    game: str = Query(default="lucky-reels", max_length=40),
) -> HTMLResponse:
    """The game's page for the member AMB calls ``username``; refused for an unknown game or a
    player Pao does not know (Pao's ``checkBalance`` answers ``10001``)."""
    if game not in GAMES:
        return _refused(f"No game {game} at this aggregator.")
    name, table = GAMES[game]
    product = TABLE_PRODUCT if table else PRODUCT
    answer = None
    if member_of(username) is not None:
        answer = await _balance(request, username, currency.value, product)
    if answer is None or answer.get("statusCode") != OK:
        code = "" if answer is None else f" (statusCode {answer.get('statusCode')})"
        return _refused(f"Pao does not know the player {username}{code}.")
    return HTMLResponse(
        game_page(
            game=name,
            table=table,
            bets=_TABLE_BETS if table else _SLOT_BETS,
            faults=_FAULTS,
            endpoint="/sandbox/amb/play/table" if table else "/sandbox/amb/play/round",
            ok_status=OK,
            session={"username": username, "currency": currency.value},
            balance=_minor(answer),
            player=username,
        )
    )


# --- the slot -----------------------------------------------------------------------------


@router.post("/play/round")
async def play_round(body: RoundIn, request: Request) -> JSONResponse:
    round_id = "sbx-" + uuid.uuid4().hex[:16]
    payout = body.stake * (0, 0, 2, 5)[secrets.randbelow(4)]
    log: list[str] = []
    if body.single_state:
        one = _txn(round_id, "SETTLED", body.stake, payout, isSingleState=True, isEndRound=True)
        envelope = _envelope(body, one)
        answer = await _logged(
            request, "settleBets", envelope, body.fault, log, "settle (single state)"
        )
        taken = answer["statusCode"] in TAKEN
        return _result(answer, log, round_id, body.stake if taken else 0, payout if taken else 0)
    count = 10 if body.fault == "burst" else 1
    bets = [_txn(round_id, "OPEN", body.stake) for _ in range(count)]
    if body.fault == "cancel_first":
        early = await _call(request, "cancelBets", _envelope(body, _cancel(bets[0])))
        log.append(f"cancel before bet: {early['statusCode']}")
    placed = await _logged(request, "placeBets", _envelope(body, *bets), body.fault, log, "bets")
    if placed["statusCode"] not in TAKEN:
        return _result(placed, log, round_id, 0, 0)
    if body.fault == "timeout":
        refund = await _call(
            request, "cancelBets", _envelope(body, _cancel(bets[0], end_round=True))
        )
        log.append(f"time-out, cancel: {refund['statusCode']}")
        return _result(refund, log, round_id, 0, 0)
    settle = {**bets[0], "status": "SETTLED", "payoutAmount": payout / 100, "isEndRound": True}
    settled = await _logged(
        request, "settleBets", _envelope(body, settle), body.fault, log, "settle"
    )
    return _result(settled, log, round_id, body.stake * count, payout)


def _result(
    answer: dict[str, Any], log: list[str], round_id: str, staked: int, payout: int
) -> JSONResponse:
    code = answer["statusCode"]
    return JSONResponse(
        {
            "round": round_id,
            "statusCode": code,
            # The page's verdict: a duplicate's 20002 means the round stands.
            "status": OK if code in TAKEN else code,
            "balance": _minor(answer),
            "staked": staked,
            "payout": payout,
            "log": log,
        }
    )


# --- the table ----------------------------------------------------------------------------


def draw() -> Side:
    """Baccarat's odds, near enough: banker 45.86 %, player 44.62 %, tie 9.52 %."""
    chance = secrets.randbelow(10_000)
    return "tie" if chance < 952 else "banker" if chance < 952 + 4586 else "player"


def payout_of(side: Side, stake: int, outcome: Side) -> int:
    """What a bet pays back (stake + win, AMB's ``payoutAmount``), in minor units."""
    if outcome == "tie":
        # A tie pays 8 to 1; bets on the player or the banker are pushed (given back).
        return stake * 9 if side == "tie" else stake
    if side != outcome:
        return 0
    # The banker pays 0.95 to 1 (the house's 5 % commission), rounded down to the satang.
    return stake * 2 if side == "player" else stake * 195 // 100


def _cancel(bet: dict[str, Any], *, end_round: bool = False) -> dict[str, Any]:
    return {**bet, "status": "REFUND", "isEndRound": end_round}


async def _place(
    request: Request, body: TableIn, bets: list[dict[str, Any]], log: list[str]
) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    """The bets sent, and Pao's first refusal (None: all taken)."""

    def envelope(*txns: dict[str, Any]) -> dict[str, Any]:
        return _envelope(body, *txns, product=TABLE_PRODUCT)

    if body.fault == "burst":
        # Each bet its own call, all at once: one wallet under concurrent bets.
        answers = await asyncio.gather(
            *(_call(request, "placeBets", envelope(bet)) for bet in bets)
        )
        log.append("burst: " + ", ".join(str(a["statusCode"]) for a in answers))
        return bets, next((a for a in answers if a["statusCode"] not in TAKEN), None)
    sent: list[dict[str, Any]] = []
    # The opening chip alone, then the others in one batch, as a player adds chips.
    for chips in (bets[:1], bets[1:]):
        if not chips:
            continue
        what = "bet " + " + ".join(str(bet["playInfo"]) for bet in chips)
        answer = await _logged(request, "placeBets", envelope(*chips), body.fault, log, what)
        sent += chips
        if answer["statusCode"] not in TAKEN:
            return sent, answer
    return sent, None


@router.post("/play/table")
async def play_table(body: TableIn, request: Request) -> JSONResponse:
    """One baccarat round: every bet placed, then settled (or the round called off)."""
    round_id = "sbx-" + uuid.uuid4().hex[:16]
    stakes = body.stakes()
    bets = [
        _txn(round_id, "OPEN", stake, gameCode="baccarat", playInfo=side) for side, stake in stakes
    ]
    log: list[str] = []

    def envelope(*txns: dict[str, Any]) -> dict[str, Any]:
        return _envelope(body, *txns, product=TABLE_PRODUCT)

    if body.fault == "cancel_first":
        early = await _call(request, "cancelBets", envelope(_cancel(bets[0])))
        log.append(f"cancel {bets[0]['playInfo']} before its bet: {early['statusCode']}")
    sent, refused = await _place(request, body, bets, log)
    if refused is not None or body.fault == "timeout":
        if refused is None:
            log.append("time-out: no answer heard, the round is called off")
        # One call per bet: a batch stops at its first refusal, and a bet Pao never took
        # (cancelled first, or refused) must not stop the refund of one it did take.
        # The last cancel ends the round (``isEndRound``): Pao closes a round only then.
        for i, bet in enumerate(sent):
            what = f"cancel {bet['playInfo']}"
            refund = _cancel(bet, end_round=i == len(sent) - 1)
            await _logged(request, "cancelBets", envelope(refund), body.fault, log, what)
        status = OK if refused is None else int(refused["statusCode"])
        return await _table_result(request, body, round_id, status, log, None, [])
    outcome = body.outcome or draw()
    settled = [
        (side, stake, payout_of(side, stake, outcome), bet)
        for (side, stake), bet in zip(stakes, bets, strict=True)
    ]
    txns = [
        {**bet, "status": "SETTLED", "payoutAmount": payout / 100, "isEndRound": i == len(bets) - 1}
        for i, (_, _, payout, bet) in enumerate(settled)
    ]
    answer = await _logged(
        request, "settleBets", envelope(*txns), body.fault, log, f"settle ({outcome})"
    )
    status = OK if answer["statusCode"] in TAKEN else int(answer["statusCode"])
    return await _table_result(request, body, round_id, status, log, outcome, settled)


async def _table_result(
    request: Request,
    body: TableIn,
    round_id: str,
    status: int,
    log: list[str],
    outcome: Side | None,
    settled: list[tuple[Side, int, int, dict[str, Any]]],
) -> JSONResponse:
    # The balance as Pao says it now: what the player sees is only ever Pao's answer.
    balance = await _balance(request, body.username, body.currency, TABLE_PRODUCT)
    return JSONResponse(
        {
            "round": round_id,
            "result": outcome,
            "status": status,
            "statusCode": status,
            "balance": _minor(balance),
            "staked": sum(stake for _, stake, _, _ in settled),
            "payout": sum(payout for _, _, payout, _ in settled) if status == OK else 0,
            "bets": [
                {"side": side, "txn": bet["id"], "stake": stake, "payout": payout}
                for side, stake, payout, bet in settled
            ],
            "log": log,
        }
    )
