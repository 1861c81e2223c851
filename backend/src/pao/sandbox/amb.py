"""The sandbox aggregator speaking AMB's Common Flow: ``POST /sandbox/amb/play/round`` plays one
round for a member by calling Pao's ``/api/amb/{product}/…`` callbacks as AMB would, signed
with the operator's signature key (``sapi-signature``).

A round is ``placeBets`` then ``settleBets`` (or one single-state ``settleBets``, as PG SOFT
sends). Fault switches: ``timeout`` (Pao took the bet, the aggregator did not hear it and
cancels it), ``duplicate`` (every call sent twice), ``cancel_first`` (the cancel overtakes its
bet), ``burst`` (a batch of ten bets in one call).
"""

from __future__ import annotations

import json
import secrets
import time
import uuid
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from pao.core.params import RequestModel
from pao.core.settings import Settings
from pao.games.seamless.amb.signature import SIGNATURE, TIMESTAMP, sign

router = APIRouter(prefix="/sandbox/amb", include_in_schema=False)

PRODUCT = "PGSOFT"


class RoundIn(RequestModel):
    username: str = Field(max_length=40)
    currency: str = Field(min_length=3, max_length=3)
    stake: int = Field(gt=0, le=10_000_000)  # minor units
    single_state: bool = False
    fault: Literal["none", "timeout", "duplicate", "cancel_first", "burst"] = "none"


async def _call(request: Request, path: str, body: dict[str, Any]) -> dict[str, Any]:
    settings: Settings = request.app.state.settings
    raw = json.dumps(body).encode()
    stamp = str(int(time.time() * 1000))
    response = await request.app.state.http.post(
        f"{settings.base_url}/api/amb/{PRODUCT.lower()}/{path}",
        content=raw,
        headers={
            "Content-Type": "application/json",
            TIMESTAMP: stamp,
            SIGNATURE: sign(settings, stamp, raw),
        },
    )
    answer: dict[str, Any] = response.json()
    return answer


def _envelope(body: RoundIn, *txns: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": str(uuid.uuid4()),
        "timestampMillis": int(time.time() * 1000),
        "productId": PRODUCT,
        "currency": body.currency,
        "username": body.username,
        "txns": list(txns),
    }


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


async def _send(request: Request, path: str, envelope: dict[str, Any], fault: str) -> Any:
    answer = await _call(request, path, envelope)
    if fault == "duplicate":
        answer = await _call(request, path, envelope)
    return answer


@router.post("/play/round")
async def play_round(body: RoundIn, request: Request) -> JSONResponse:
    round_id = "sbx-" + uuid.uuid4().hex[:16]
    payout = body.stake * (0, 0, 2, 5)[secrets.randbelow(4)]
    log: list[str] = []
    if body.single_state:
        one = _txn(round_id, "SETTLED", body.stake, payout, isSingleState=True, isEndRound=True)
        answer = await _send(request, "settleBets", _envelope(body, one), body.fault)
        log.append(f"settle (single state): {answer['statusCode']}")
        return _result(answer, log, payout if answer["statusCode"] in (0, 20002) else 0)
    count = 10 if body.fault == "burst" else 1
    bets = [_txn(round_id, "OPEN", body.stake) for _ in range(count)]
    if body.fault == "cancel_first":
        early = await _call(request, "cancelBets", _envelope(body, {**bets[0], "status": "REFUND"}))
        log.append(f"cancel before bet: {early['statusCode']}")
    placed = await _send(request, "placeBets", _envelope(body, *bets), body.fault)
    log.append(f"bets: {placed['statusCode']}")
    if placed["statusCode"] not in (0, 20002):
        return _result(placed, log, 0)
    if body.fault == "timeout":
        refund = await _call(
            request, "cancelBets", _envelope(body, {**bets[0], "status": "REFUND"})
        )
        log.append(f"time-out, cancel: {refund['statusCode']}")
        return _result(refund, log, 0)
    settle = {**bets[0], "status": "SETTLED", "payoutAmount": payout / 100, "isEndRound": True}
    settled = await _send(request, "settleBets", _envelope(body, settle), body.fault)
    log.append(f"settle: {settled['statusCode']}")
    return _result(settled, log, payout)


def _result(answer: dict[str, Any], log: list[str], payout: int) -> JSONResponse:
    return JSONResponse(
        {
            "statusCode": answer["statusCode"],
            "balance": round(float(answer.get("balance") or 0) * 100),
            "payout": payout,
            "log": log,
        }
    )
