"""The Common Flow callbacks Pao hosts for AMB: ``POST /api/amb/{prefix}/checkBalance``,
``/placeBets``, ``/settleBets``, ``/cancelBets`` (``prefix`` is the product's path, as AMB
mounts one per product; the product that counts is the body's ``productId``).

Each call is verified (``sapi-signature``) before its body is parsed. A call carries a batch of
txns: each is one call of the core in its own transaction, in order, and the batch stops at the
first refusal, the earlier txns staying applied (AMB's rule); the answer is the last txn's. AMB's
duplicate rule: a txn already processed answers ``20002`` with the current balance. The other
Common Flow paths (adjustBets, rollback of a settlement, tips, voids, balance adjustments) are
answered ``40003`` and move nothing: their semantics are not documented where Pao could read
them (ADR 0025).

Provider transaction ids are scoped by product: AMB relays many products whose ids may meet.
A round closes when AMB ends it (:func:`_ends_round`), not at its first settlement: a table
round is settled bet by bet, ``isEndRound`` on the last. What is only read outside the core's
transactions (the member, a balance, a round's first bet) is read in the app's read sessions:
no BEGIN and ROLLBACK round trips on PostgreSQL.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from sqlalchemy import select

from pao.games.seamless import core
from pao.games.seamless.amb import PROVIDER, wire
from pao.games.seamless.amb.signature import SIGNATURE, TIMESTAMP, verify
from pao.games.seamless.hub88.wire import member_of
from pao.games.seamless.models import SeamlessTransaction, TxnKind
from pao.identity.models import Member
from pao.kit.money import Currency

router = APIRouter(prefix="/api/amb/{prefix}")

_NOT_OFFERED = (
    "adjustBets",
    "rollback",
    "winRewards",
    "placeTips",
    "cancelTips",
    "voidSettled",
    "adjustBalance",
)


def _answer(
    call: dict[str, Any], status: int, balance: int | None = None, before: int | None = None
) -> JSONResponse:
    body: dict[str, Any] = {
        "id": call.get("id"),
        "statusCode": status,
        "timestampMillis": int(time.time() * 1000),
        "productId": call.get("productId"),
        "currency": call.get("currency"),
        "username": call.get("username"),
        "balance": wire.to_major(balance or 0),
    }
    if before is not None and balance is not None:
        body["balanceBefore"] = wire.to_major(before)
        body["balanceAfter"] = wire.to_major(balance)
    return JSONResponse(body)


async def _verified(request: Request) -> bytes | None:
    raw = await request.body()
    headers = request.headers
    if verify(request.app.state.settings, headers.get(TIMESTAMP), headers.get(SIGNATURE), raw):
        return raw
    return None


def _echo(call: wire.Envelope | wire.BalanceCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "productId": call.product_id,
        "currency": call.currency,
        "username": call.username,
    }


async def _parse(request: Request, model: type[wire.Envelope] | type[wire.BalanceCall]) -> Any:
    raw = await _verified(request)
    if raw is None:
        return _answer({}, wire.INVALID_SIGNATURE)
    try:
        return model.model_validate_json(raw)
    except ValidationError:
        return _answer({}, wire.INTERNAL)


async def check_balance(prefix: str, request: Request) -> JSONResponse:
    """The wallet's balance."""
    call = await _parse(request, wire.BalanceCall)
    if isinstance(call, JSONResponse):
        return call
    member_id = member_of(call.username)
    if member_id is None:
        return _answer(_echo(call), wire.USER_NOT_FOUND)
    async with request.app.state.read_sessionmaker() as session:
        outcome = await core.balance(session, member_id)
    if outcome.status is core.Status.UNKNOWN_USER:
        return _answer(_echo(call), wire.USER_NOT_FOUND)
    return _answer(_echo(call), wire.OK, outcome.balance)


def _scoped(call: wire.Envelope, value: str) -> str:
    return f"{call.product_id}:{value}"


def _ends_round(path: str, txn: wire.Txn) -> bool:
    """Whether this txn is the provider closing its round (providers.md §2).

    ``isEndRound`` says so on any txn. Two settlements end the round by what they are: a
    single-state one is the whole round (stake and payout in one ``settleBets``), and a
    ``BY_ROUND`` one settles every bet of the round at once. Any other settlement or cancel
    settles one bet: a table round's other bets may still be open (and more may come), so the
    round stays open until the provider's ``isEndRound``.
    """
    if txn.is_end_round:
        return True
    return path == "settleBets" and (txn.is_single_state or txn.transaction_type == "BY_ROUND")


def _move(
    call: wire.Envelope,
    member_id: int,
    txn: wire.Txn,
    *,
    suffix: str,
    amount: int,
    ref: bool,
    ends_round: bool,
) -> core.Move:
    return core.Move(
        provider=PROVIDER,
        txn_id=_scoped(call, txn.id) + suffix,
        member_id=member_id,
        currency=Currency(call.currency),
        round_id=_scoped(call, txn.round_id),
        game_code=txn.game_code or call.product_id,
        amount=amount,
        reference_id=_scoped(call, txn.id) if ref else None,
        round_closed=ends_round,
    )


async def _first_bet_of_round(request: Request, call: wire.Envelope, txn: wire.Txn) -> str | None:
    """BY_ROUND: the round's first bet stands for the round (its txn id, unscoped)."""
    async with request.app.state.read_sessionmaker() as session:
        found = await session.scalar(
            select(SeamlessTransaction.txn_id)
            .where(
                SeamlessTransaction.provider == PROVIDER,
                SeamlessTransaction.round_id == _scoped(call, txn.round_id),
                SeamlessTransaction.kind == TxnKind.BET,
            )
            .order_by(SeamlessTransaction.id)
            .limit(1)
        )
    return None if found is None else found.split(":", 1)[1]


async def _one(
    request: Request, path: str, call: wire.Envelope, member_id: int, txn: wire.Txn
) -> core.Outcome | int:
    """One txn through the core; or a code refusing it before any money."""
    stake, payout = wire.to_minor(txn.bet_amount), wire.to_minor(txn.payout_amount)
    if stake is None or payout is None:
        return wire.INTERNAL
    state = request.app.state

    async def play(kind: TxnKind, move: core.Move) -> core.Outcome:
        return await core.play(state.sessionmaker, state.engine, kind, move)

    if txn.skip_balance_update:
        async with request.app.state.read_sessionmaker() as session:
            return await core.balance(session, member_id)
    ends = _ends_round(path, txn)
    if path == "placeBets":
        move = _move(call, member_id, txn, suffix="", amount=stake, ref=False, ends_round=ends)
        return await play(TxnKind.BET, move)
    if path == "settleBets":
        if txn.is_single_state:
            # The stake opens the round; the payout just after closes it.
            bet = _move(call, member_id, txn, suffix="", amount=stake, ref=False, ends_round=False)
            placed = await play(TxnKind.BET, bet)
            if not placed.ok or placed.replayed:
                return placed
        elif txn.transaction_type == "BY_ROUND":
            first = await _first_bet_of_round(request, call, txn)
            if first is None:
                return wire.NOT_FOUND
            txn = txn.model_copy(update={"id": first})
        win = _move(
            call, member_id, txn, suffix=":settle", amount=payout, ref=True, ends_round=ends
        )
        return await play(TxnKind.WIN, win)
    refund = _move(call, member_id, txn, suffix=":cancel", amount=0, ref=True, ends_round=ends)
    return await play(TxnKind.ROLLBACK, refund)


async def _money(prefix: str, request: Request, path: str) -> JSONResponse:
    call = await _parse(request, wire.Envelope)
    if isinstance(call, JSONResponse):
        return call
    echo = _echo(call)
    member_id = member_of(call.username)
    async with request.app.state.read_sessionmaker() as session:
        member = None if member_id is None else await session.get(Member, member_id)
    if member is None or member_id is None:
        return _answer(echo, wire.USER_NOT_FOUND)
    if call.currency != member.currency:
        return _answer(echo, wire.FORBIDDEN)
    before: int | None = None
    last: core.Outcome | None = None
    for txn in call.txns:
        outcome = await _one(request, path, call, member_id, txn)
        if isinstance(outcome, int):
            return _answer(echo, outcome, last.balance if last else None)
        before = outcome.before if before is None else before
        last = outcome
        if not outcome.ok or outcome.replayed:
            status = wire.DUPLICATE if outcome.ok else wire.STATUS[outcome.status]
            return _answer(echo, status, outcome.balance)
    if last is None:  # no txns: nothing to do, the balance as it stands
        async with request.app.state.read_sessionmaker() as session:
            last = await core.balance(session, member_id)
    return _answer(echo, wire.OK, last.balance, before)


async def place_bets(prefix: str, request: Request) -> JSONResponse:
    """Stakes taken from the wallet."""
    return await _money(prefix, request, "placeBets")


async def settle_bets(prefix: str, request: Request) -> JSONResponse:
    """Payouts (a single-state product's stake and payout in one)."""
    return await _money(prefix, request, "settleBets")


async def cancel_bets(prefix: str, request: Request) -> JSONResponse:
    """Stakes given back (a rollback of the bet, once)."""
    return await _money(prefix, request, "cancelBets")


async def not_offered(prefix: str, request: Request) -> JSONResponse:
    """A Common Flow path Pao does not take: refused, nothing moves."""
    if await _verified(request) is None:
        return _answer({}, wire.INVALID_SIGNATURE)
    return _answer({}, wire.FORBIDDEN)


for _path, _endpoint in (
    ("checkBalance", check_balance),
    ("placeBets", place_bets),
    ("settleBets", settle_bets),
    ("cancelBets", cancel_bets),
    *((name, not_offered) for name in _NOT_OFFERED),
):
    router.add_api_route(
        f"/{_path}",
        _endpoint,
        methods=["POST"],
        operation_id=f"amb_{_path}",
        include_in_schema=False,
    )
