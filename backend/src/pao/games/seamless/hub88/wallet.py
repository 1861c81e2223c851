"""The operator Wallet API Pao hosts for Hub88: ``POST /api/hub88/user/info``,
``/user/balance``, ``/transaction/bet``, ``/transaction/win``, ``/transaction/rollback``.

Each call is verified (``X-Hub88-Signature`` over the raw bytes) before its body is parsed,
answers HTTP 200 with the outcome in ``status`` and ``request_uuid`` echoed, and amounts in
Hub88's unit. The money rules are :mod:`pao.games.seamless.core`'s; this module maps fields
and codes. A bet needs the member's own, unexpired session token for that currency and a game
of the catalogue; a win or rollback needs neither (Hub88: never refuse them for the token).
These are bare routes (no unit-of-work route, no member session): the core runs each call
committed before the answer (on PostgreSQL one statement in autocommit: ADR 0033); what is only
read before it is read outside a transaction: a bet's token and game by one statement by itself,
the member in the app's read sessions (no BEGIN and ROLLBACK round trips on PostgreSQL).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from sqlalchemy import bindparam, exists, select
from sqlalchemy.ext.asyncio import AsyncEngine

from pao.core import executor
from pao.games.seamless import core, tokens
from pao.games.seamless.hub88 import PROVIDER, wire
from pao.games.seamless.hub88.keys import keys_of
from pao.games.seamless.hub88.signature import HEADER, verify
from pao.games.seamless.models import SeamlessGame, SeamlessSession, TxnKind
from pao.identity.models import Member
from pao.kit.money import Currency

router = APIRouter(prefix="/api/hub88")

Model = TypeVar("Model", bound=BaseModel)
_COUNTRY = {Currency.THB: "TH", Currency.LAK: "LA"}


def _answer(
    call: dict[str, Any],
    status: str,
    currency: str | None = None,
    balance: int | None = None,
    **extra: str,
) -> JSONResponse:
    body: dict[str, Any] = {
        "user": call.get("user"),
        "status": status,
        "request_uuid": call.get("request_uuid"),
    }
    if currency is not None:
        body["currency"] = currency
    if balance is not None:
        body["balance"] = wire.from_minor(balance)
    return JSONResponse({**body, **extra})


def _outcome(call: dict[str, Any], outcome: core.Outcome) -> JSONResponse:
    return _answer(call, wire.STATUS[outcome.status], outcome.currency, outcome.balance)


async def _read(request: Request, model: type[Model]) -> Model | JSONResponse:
    """The verified, parsed call; or the answer refusing it."""
    raw = await request.body()
    if not verify(keys_of(request.app).hub88_public, raw, request.headers.get(HEADER)):
        return _answer(_loose(raw), wire.INVALID_SIGNATURE)
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        syntax = any(e["type"] in ("missing", "json_invalid", "model_type") for e in exc.errors())
        return _answer(_loose(raw), wire.WRONG_SYNTAX if syntax else wire.WRONG_TYPES)


def _echo(call: wire.Call) -> dict[str, Any]:
    """The two fields every answer repeats (not a dump of the whole call: a bet has fourteen)."""
    return {"user": call.user, "request_uuid": call.request_uuid}


def _loose(raw: bytes) -> dict[str, Any]:
    """What can be echoed from a body that was refused (only after its signature held, or
    nothing but the two echo fields: a refusal never reflects more)."""
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if k in ("user", "request_uuid") and isinstance(v, str)}


Handler = Callable[[Request], Awaitable[JSONResponse]]


def _call(
    model: type[Model],
) -> Callable[[Callable[[Request, Model], Awaitable[JSONResponse]]], Handler]:
    """Verify and parse before the handler; an unknown user id is answered here."""

    def decorate(handler: Callable[[Request, Model], Awaitable[JSONResponse]]) -> Handler:
        async def endpoint(request: Request) -> JSONResponse:
            call = await _read(request, model)
            if isinstance(call, JSONResponse):
                return call
            return await handler(request, call)

        endpoint.__doc__ = handler.__doc__
        return endpoint

    return decorate


def _member_id(call: wire.Call) -> int | None:
    return wire.member_of(call.user)


async def _play(request: Request, kind: TxnKind, move: core.Move) -> core.Outcome:
    state = request.app.state
    return await core.play(state.sessionmaker, state.engine, kind, move)


@_call(wire.InfoIn)
async def user_info(request: Request, call: wire.InfoIn) -> JSONResponse:
    """The player's country and currency (no personal data)."""
    echo = _echo(call)
    member_id = _member_id(call)
    async with request.app.state.read_sessionmaker() as session:
        member = None if member_id is None else await session.get(Member, member_id)
        if member is None:
            return _answer(echo, wire.INVALID_TOKEN)
        outcome = await core.balance(session, member.id)
    return _answer(
        echo,
        wire.STATUS[outcome.status],
        outcome.currency,
        outcome.balance,
        # Of the player details only `country` is a documented key (providers.md §1: the
        # others' names are UNCONFIRMED); nothing is sent under a guessed name.
        country=_COUNTRY[member.currency],
    )


@_call(wire.BalanceIn)
async def user_balance(request: Request, call: wire.BalanceIn) -> JSONResponse:
    """The wallet's balance."""
    echo = _echo(call)
    member_id = _member_id(call)
    if member_id is None:
        return _answer(echo, wire.INVALID_TOKEN)
    async with request.app.state.read_sessionmaker() as session:
        if call.token is not None:
            check, _ = await tokens.check(
                session, token=call.token, provider=PROVIDER, member_id=member_id
            )
            if check is tokens.TokenCheck.UNKNOWN:
                return _answer(echo, wire.INVALID_TOKEN)
        outcome = await core.balance(session, member_id)
    if outcome.status is core.Status.UNKNOWN_USER:
        return _answer(echo, wire.INVALID_TOKEN)
    return _outcome(echo, outcome)


_BET_GATE = select(
    SeamlessSession.provider,
    SeamlessSession.member_id,
    SeamlessSession.currency,
    SeamlessSession.expires_at,
    exists()
    .where(
        SeamlessGame.provider == PROVIDER,
        SeamlessGame.game_code == bindparam("game_code"),
        SeamlessGame.enabled.is_(True),
    )
    .label("known_game"),
).where(SeamlessSession.token == bindparam("token"))


class _Token(NamedTuple):
    """The columns of the token a bet names (no ORM object: a bet is half of every spin)."""

    provider: str
    member_id: int
    currency: str
    expires_at: datetime


async def _bet_gate(
    engine: AsyncEngine, *, token: str, member_id: int, game_code: str
) -> tuple[tokens.TokenCheck, _Token | None, bool]:
    """The bet's token (as :func:`tokens.check` judges it) and whether its game is one of the
    catalogue's, read by one statement by itself (no session)."""
    rows = await executor.fetch_alone(engine, _BET_GATE, {"token": token, "game_code": game_code})
    if not rows:
        return tokens.TokenCheck.UNKNOWN, None, False
    *columns, known = rows[0]
    found = _Token(*columns)
    verdict = tokens.judge(found, provider=PROVIDER, member_id=member_id)
    return verdict, None if verdict is tokens.TokenCheck.UNKNOWN else found, bool(known)


def _move(
    call: wire.BetIn | wire.RollbackIn, member_id: int, currency: str, amount: int
) -> core.Move:
    return core.Move(
        provider=PROVIDER,
        txn_id=call.transaction_uuid,
        member_id=member_id,
        currency=Currency(currency),
        round_id=call.round,
        game_code=call.game_code,
        amount=amount,
        reference_id=getattr(call, "reference_transaction_uuid", None),
        round_closed=call.round_closed,
    )


async def _checked_money(call: wire.BetIn, echo: dict[str, Any]) -> tuple[int, int] | JSONResponse:
    """The member id and the amount in minor units, or the refusal."""
    member_id = _member_id(call)
    if member_id is None:
        return _answer(echo, wire.INVALID_TOKEN)
    if call.currency not in Currency.__members__:
        return _answer(echo, wire.WRONG_CURRENCY)
    amount = wire.to_minor(call.amount)
    if amount is None:
        return _answer(echo, wire.WRONG_TYPES)
    return member_id, amount


@_call(wire.BetIn)
async def transaction_bet(request: Request, call: wire.BetIn) -> JSONResponse:
    """Take a stake from the wallet."""
    echo = _echo(call)
    checked = await _checked_money(call, echo)
    if isinstance(checked, JSONResponse):
        return checked
    member_id, amount = checked
    check, found, known_game = await _bet_gate(
        request.app.state.engine, token=call.token, member_id=member_id, game_code=call.game_code
    )
    if check is tokens.TokenCheck.UNKNOWN or found is None:
        return _answer(echo, wire.INVALID_TOKEN)
    if found.currency != call.currency:
        return _answer(echo, wire.WRONG_CURRENCY)
    move = _move(call, member_id, call.currency, amount)
    if check is tokens.TokenCheck.EXPIRED or not known_game:
        # Refused before any money; but a bet already taken still answers as the first time
        # did (the provider's retry after the token aged).
        async with request.app.state.read_sessionmaker() as session:
            replay = await core.replayed(session, TxnKind.BET, move)
        if replay is not None:
            return _outcome(echo, replay)
        status = wire.TOKEN_EXPIRED if check is tokens.TokenCheck.EXPIRED else wire.INVALID_GAME
        return _answer(echo, status)
    return _outcome(echo, await _play(request, TxnKind.BET, move))


@_call(wire.WinIn)
async def transaction_win(request: Request, call: wire.WinIn) -> JSONResponse:
    """Pay a win for a bet Pao took (never refused for the token's age)."""
    echo = _echo(call)
    checked = await _checked_money(call, echo)
    if isinstance(checked, JSONResponse):
        return checked
    member_id, amount = checked
    move = _move(call, member_id, call.currency, amount)
    return _outcome(echo, await _play(request, TxnKind.WIN, move))


@_call(wire.RollbackIn)
async def transaction_rollback(request: Request, call: wire.RollbackIn) -> JSONResponse:
    """Undo a bet (its stake back, once); a rollback before its bet is remembered."""
    echo = _echo(call)
    member_id = _member_id(call)
    if member_id is None:
        return _answer(echo, wire.INVALID_TOKEN)
    async with request.app.state.read_sessionmaker() as session:
        member = await session.get(Member, member_id)
    if member is None:
        return _answer(echo, wire.STATUS[core.Status.UNKNOWN_USER])
    move = _move(call, member_id, member.currency, 0)
    return _outcome(echo, await _play(request, TxnKind.ROLLBACK, move))


for _path, _endpoint, _name in (
    ("/user/info", user_info, "hub88UserInfo"),
    ("/user/balance", user_balance, "hub88UserBalance"),
    ("/transaction/bet", transaction_bet, "hub88TransactionBet"),
    ("/transaction/win", transaction_win, "hub88TransactionWin"),
    ("/transaction/rollback", transaction_rollback, "hub88TransactionRollback"),
):
    router.add_api_route(
        _path, _endpoint, methods=["POST"], operation_id=_name, include_in_schema=False
    )
