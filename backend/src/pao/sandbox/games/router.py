"""HTTP of the sandbox game provider (left out of Pao's OpenAPI document).

``/sandbox/games/api/{brand}/…``  the provider API the HTTP adapter speaks (``X-Api-Key``)
``/sandbox/games/faults``           arm failures for the next matching API calls (tests, demos);
                                    mode ``down``: the provider is down (503 MAINTENANCE) for
                                    every matching call until the faults are cleared
``/sandbox/games/login/{brand}``    the provider's login page (accepts the credentials)
``/sandbox/games/play/{token}``     a small slot game whose spins move the account's money

Writes to the sandbox's SQLite file are serialised by one lock per app (it plays a single
third party; Pao's own database does not depend on it).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Header, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import ConfigDict, Field
from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.params import RequestModel
from pao.games.providers import provider_api_key
from pao.kit.money import MAX_MINOR
from pao.sandbox.games import pages, service
from pao.sandbox.games.models import SandboxGameFault
from pao.sandbox.games.service import SandboxRefusal
from pao.sandbox.store import SandboxSessionDep

router = APIRouter(include_in_schema=False)
API = "/sandbox/games/api/{brand}"


class _In(RequestModel):
    model_config = ConfigDict(populate_by_name=True, extra="forbid")


class AccountIn(_In):
    member_ref: str = Field(alias="memberRef", min_length=1, max_length=80)


class TransferIn(_In):
    transfer_id: str = Field(alias="transferId", min_length=1, max_length=64)
    username: str = Field(min_length=1, max_length=80)
    type: str = Field(pattern="^(deposit|withdraw)$")
    amount: int = Field(gt=0, le=MAX_MINOR)


class FaultIn(_In):
    brand: str | None = None
    username: str | None = None
    operation: str = Field(
        default="transfer",
        pattern="^(transfer|deposit|withdraw|balance|status|account|launch|any)$",
    )
    mode: str = Field(pattern="^(timeout|refuse|error|late|down)$")
    count: int = Field(default=1, ge=1, le=1000)
    delay_seconds: float = Field(default=30.0, alias="delaySeconds", ge=0, le=600)


class SpinIn(_In):
    bet: int = Field(ge=0, le=MAX_MINOR)


@asynccontextmanager
async def _writer(request: Request) -> AsyncIterator[None]:
    lock: asyncio.Lock | None = getattr(request.app.state, "sandbox_games_lock", None)
    if lock is None:
        lock = request.app.state.sandbox_games_lock = asyncio.Lock()
    async with lock:
        yield


def _refusal(exc: SandboxRefusal) -> JSONResponse:
    return JSONResponse({"error": exc.error}, status_code=exc.status_code)


def _check_key(request: Request, key: str | None) -> None:
    expected = provider_api_key(request.app.state.settings)
    if key is None or not secrets.compare_digest(key, expected):
        raise SandboxRefusal("BAD_API_KEY", 401)


async def _fault(
    request: Request,
    session: AsyncSession,
    *,
    brand: str,
    username: str | None,
    operation: str,
) -> SandboxGameFault | None:
    """Apply an armed fault: timeout / refuse / error end the call here; late is returned."""
    async with _writer(request):
        fault = await service.take_fault(
            session, brand=brand, username=username, operation=operation
        )
        await session.commit()
    if fault is None:
        return None
    if fault.mode == "timeout":
        await asyncio.sleep(fault.delay_seconds)
        raise SandboxRefusal("GATEWAY_TIMEOUT", 504)
    if fault.mode == "refuse":
        raise SandboxRefusal("REFUSED", 400)
    if fault.mode == "error":
        raise SandboxRefusal("INTERNAL_ERROR", 500)
    if fault.mode == "down":
        raise SandboxRefusal("MAINTENANCE", 503)
    return fault


async def _late(fault: SandboxGameFault | None) -> None:
    if fault is not None and fault.mode == "late":
        await asyncio.sleep(fault.delay_seconds)


ApiKey = Annotated[str | None, Header(alias="X-Api-Key")]


@router.post(API + "/accounts")
async def create_account(
    brand: str, body: AccountIn, request: Request, session: SandboxSessionDep, key: ApiKey = None
) -> JSONResponse:
    try:
        _check_key(request, key)
        fault = await _fault(request, session, brand=brand, username=None, operation="account")
        async with _writer(request):
            account = await service.create_account(session, brand=brand, member_ref=body.member_ref)
            await session.commit()
        await _late(fault)
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse({"username": account.username, "password": account.password})


@router.get(API + "/accounts/{username}/balance")
async def balance(
    brand: str, username: str, request: Request, session: SandboxSessionDep, key: ApiKey = None
) -> JSONResponse:
    try:
        _check_key(request, key)
        fault = await _fault(request, session, brand=brand, username=username, operation="balance")
        account = await service.find_account(session, brand, username)
        await _late(fault)
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse({"username": username, "balance": account.balance})


def _transfer_body(record: Any) -> dict[str, Any]:
    return {
        "transferId": record.transfer_id,
        "status": record.status,
        "reason": record.reason,
        "balance": record.balance_after,
        "type": record.type,
        "amount": record.amount,
    }


@router.post(API + "/transfers")
async def transfer(
    brand: str, body: TransferIn, request: Request, session: SandboxSessionDep, key: ApiKey = None
) -> JSONResponse:
    try:
        _check_key(request, key)
        fault = await _fault(
            request, session, brand=brand, username=body.username, operation=body.type
        )
        async with _writer(request):
            record = await service.apply_transfer(
                session,
                brand=brand,
                transfer_id=body.transfer_id,
                username=body.username,
                kind=body.type,
                amount=body.amount,
            )
            answer = _transfer_body(record)
            await session.commit()
        # "late": the money moved and is committed; the answer arrives after the client gave up.
        await _late(fault)
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse(answer)


@router.get(API + "/transfers/{transfer_id}")
async def transfer_status(
    brand: str, transfer_id: str, request: Request, session: SandboxSessionDep, key: ApiKey = None
) -> JSONResponse:
    try:
        _check_key(request, key)
        fault = await _fault(request, session, brand=brand, username=None, operation="status")
        record = await service.find_transfer(session, transfer_id)
        await _late(fault)
    except SandboxRefusal as exc:
        return _refusal(exc)
    if record is None or record.brand != brand:
        return JSONResponse({"error": "NOT_FOUND", "status": "NOT_FOUND"}, status_code=404)
    return JSONResponse(_transfer_body(record))


@router.post(API + "/accounts/{username}/password")
async def reset_password(
    brand: str, username: str, request: Request, session: SandboxSessionDep, key: ApiKey = None
) -> JSONResponse:
    try:
        _check_key(request, key)
        fault = await _fault(request, session, brand=brand, username=username, operation="account")
        async with _writer(request):
            password = await service.reset_password(session, brand=brand, username=username)
            await session.commit()
        await _late(fault)
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse({"username": username, "password": password})


@router.post(API + "/accounts/{username}/launch")
async def launch(
    brand: str, username: str, request: Request, session: SandboxSessionDep, key: ApiKey = None
) -> JSONResponse:
    try:
        _check_key(request, key)
        await _fault(request, session, brand=brand, username=username, operation="launch")
        await service.find_account(session, brand, username)
        async with _writer(request):
            token = await service.open_session(session, brand=brand, username=username)
            await session.commit()
    except SandboxRefusal as exc:
        return _refusal(exc)
    url = str(request.base_url).rstrip("/") + f"/sandbox/games/play/{token}"
    return JSONResponse({"url": url})


@router.get(API + "/accounts/{username}/bets")
async def bets(
    brand: str,
    username: str,
    since: datetime,
    until: datetime,
    request: Request,
    session: SandboxSessionDep,
    key: ApiKey = None,
) -> JSONResponse:
    try:
        _check_key(request, key)
        rows = await service.bets(session, brand=brand, username=username, since=since, until=until)
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse(
        {
            "bets": [
                {
                    "betId": str(row.id),
                    "bet": row.bet,
                    "payout": row.payout,
                    "reels": row.reels.split(","),
                    "createdAt": row.created_at.isoformat(),
                }
                for row in rows
            ]
        }
    )


@router.post("/sandbox/games/faults")
async def arm_fault(body: FaultIn, request: Request, session: SandboxSessionDep) -> JSONResponse:
    async with _writer(request):
        fault = SandboxGameFault(
            brand=body.brand,
            username=body.username,
            operation=body.operation,
            mode=body.mode,
            remaining=body.count,
            delay_seconds=body.delay_seconds,
        )
        session.add(fault)
        await session.commit()
    return JSONResponse({"id": fault.id})


@router.delete("/sandbox/games/faults")
async def clear_faults(request: Request, session: SandboxSessionDep) -> JSONResponse:
    async with _writer(request):
        await session.execute(delete(SandboxGameFault))
        await session.commit()
    return JSONResponse({"code": "OK"})


@router.get("/sandbox/games/inspect/{brand}/{username}")
async def inspect(brand: str, username: str, session: SandboxSessionDep) -> JSONResponse:
    """The provider's view of one account (for tests and curious developers)."""
    try:
        account = await service.find_account(session, brand, username)
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse({"username": username, "balance": account.balance})


@router.get("/sandbox/games/login/{brand}", response_class=HTMLResponse)
async def login_page(brand: str, error: str | None = None) -> HTMLResponse:
    return HTMLResponse(pages.login_page(brand, error=error is not None))


@router.post("/sandbox/games/login/{brand}", response_model=None)
async def login(
    brand: str,
    request: Request,
    session: SandboxSessionDep,
    username: Annotated[str, Form(max_length=80)],
    password: Annotated[str, Form(max_length=80)],
) -> Response:
    try:
        async with _writer(request):
            token = await service.login(session, brand=brand, username=username, password=password)
            await session.commit()
    except SandboxRefusal:
        return RedirectResponse(f"/sandbox/games/login/{brand}?error=1", status_code=303)
    return RedirectResponse(f"/sandbox/games/play/{token}", status_code=303)


@router.get("/sandbox/games/play/{token}", response_class=HTMLResponse, response_model=None)
async def play_page(token: str, session: SandboxSessionDep) -> Response:
    try:
        account = await service.session_account(session, token)
    except SandboxRefusal:
        return HTMLResponse(pages.expired_page(), status_code=401)
    return HTMLResponse(pages.play_page(account.brand, account.username, account.balance, token))


@router.get("/sandbox/games/play/{token}/state")
async def play_state(token: str, session: SandboxSessionDep) -> JSONResponse:
    try:
        account = await service.session_account(session, token)
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse({"balance": account.balance})


@router.post("/sandbox/games/play/{token}/spin")
async def play_spin(
    token: str, body: SpinIn, request: Request, session: SandboxSessionDep
) -> JSONResponse:
    try:
        async with _writer(request):
            result = await service.spin(session, token=token, bet=body.bet)
            await session.commit()
    except SandboxRefusal as exc:
        return _refusal(exc)
    return JSONResponse(
        {
            "reels": result.reels,
            "bet": result.bet,
            "payout": result.payout,
            "balance": result.balance,
            "betId": str(result.bet_id),
        }
    )
