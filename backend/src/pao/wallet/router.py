"""HTTP routes of pao.wallet: the wallet summary, withdraw requests and the statement."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from pao.core.errors import AppError, error_response
from pao.core.fast_lane import LeanEndpoint, declared_route, lean_post
from pao.core.language import Language, RequestLanguage
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import ReadRoute, SessionDep, UnitOfWorkRoute
from pao.identity.deps import BearerCredentials, CurrentMember, bearer, current_member
from pao.kit.idempotency import IdempotencyKeyHeader, run_idempotent
from pao.kit.pagination import PageRequest
from pao.wallet.models import Statement
from pao.wallet.schemas import (
    StatementLine,
    StatementNote,
    StatementsResponse,
    WalletResponse,
    WithdrawRequest,
    WithdrawResponse,
)
from pao.wallet.screen import wallet_screen
from pao.wallet.statement_notes import params_in, render
from pao.wallet.statements import list_statements
from pao.wallet.withdrawal_statement import withdraw_alone
from pao.wallet.withdrawals import OPERATION, key_owner, request_withdrawal

router = APIRouter(route_class=UnitOfWorkRoute)
# Pure reads, without a transaction (every page load asks for the wallet).
reads = APIRouter(route_class=ReadRoute)

WITHDRAW_ERRORS = {
    **AUTH_ERRORS,
    **errors(
        _400="TRANSFER_MINIMUM | WITHDRAW_MINIMUM | WITHDRAW_MAXIMUM | MONEY_NOT_ENOUGH"
        " | BONUS_REMAINING | NO_BANK | CURRENCY_NOT_OFFERED",
        _409="IDEMPOTENCY_KEY_REUSED",
        _422="KEY_MISSING | KEY_INVALID",
    ),
}


@reads.get(
    "/api/wallet",
    operation_id="getWallet",
    tags=["wallet"],
    response_model=WalletResponse,
    responses=AUTH_ERRORS,
)
async def get_wallet(request: Request, credentials: BearerCredentials) -> Response:
    # The contract's route (its bearer scheme, its response model); the fast lane answers
    # it in front of the routing with the same wallet_read, which reads the token itself.
    # (No docstring: it would become the operation's description in the contract.)
    del credentials
    return await wallet_read(request)


async def wallet_read(request: Request) -> Response:
    """``GET /api/wallet``, as the fast lane serves it (pao.core.fast_lane) and as the
    route above does: authenticated inside the screen's one statement (pao.wallet.screen), not
    through CurrentMember, the bearer token read by the same ``HTTPBearer``, a refusal answered
    as the app's handler answers it, the session only for the caches' refills (its one
    statement runs alone: ADR 0037); the body is already JSON."""
    credentials = await bearer(request)
    try:
        async with request.app.state.read_sessionmaker() as session:
            body = await wallet_screen(request.app, session, credentials)
    except AppError as refused:
        return error_response(refused.status_code, refused.body(), refused.headers)
    return Response(body, media_type="application/json")


async def _withdraw(
    engine: AsyncEngine,
    session: AsyncSession,
    credentials: HTTPAuthorizationCredentials | None,
    body: WithdrawRequest,
    key: str | None,
) -> Any:
    """The withdrawal request, in one statement on PostgreSQL
    (:mod:`pao.wallet.withdrawal_statement`), else in steps: the member, then the key
    around the request (/withdraw and /withdrawAll are one intent: a key reused across them
    replays)."""
    answer = await withdraw_alone(engine, session, credentials, amount=body.amount, key=key)
    if answer is not None:
        return answer
    member = await current_member(session, credentials)

    async def action() -> WithdrawResponse:
        withdrawal = await request_withdrawal(session, member=member, amount=body.amount)
        return WithdrawResponse(code="OK", status=withdrawal.status, withdrawal_id=withdrawal.id)

    return await run_idempotent(
        session,
        owner=key_owner(member.id),
        key=key,
        operation=OPERATION,
        payload={"amount": body.amount},
        action=action,
    )


async def withdraw_lean(request: Request) -> Response | None:
    """``POST /api/wallet/withdraw`` and ``/withdrawAll`` as the fast lane serves them
    (:func:`pao.core.fast_lane.lean_post`): what the routes below do, the bearer token read by
    the same ``HTTPBearer``, without FastAPI's dependency solving."""
    credentials = await bearer(request)
    key = request.headers.get("idempotency-key")

    async def act(session: AsyncSession, asked: WithdrawRequest) -> Any:
        return await _withdraw(request.app.state.engine, session, credentials, asked, key)

    return await lean_post(request, WithdrawRequest, WithdrawResponse, act)


@router.post(
    "/api/wallet/withdraw",
    operation_id="withdraw",
    tags=["wallet"],
    response_model=WithdrawResponse,
    responses=WITHDRAW_ERRORS,
)
async def withdraw(
    request: Request,
    body: WithdrawRequest,
    session: SessionDep,
    member: CurrentMember,
    credentials: BearerCredentials,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    """Hold ``amount`` out of the wallet for a payout to the member's bank account."""
    del member  # solved first: without a login, 401 before the body is looked at
    return await _withdraw(request.app.state.engine, session, credentials, body, idempotency_key)


@router.post(
    "/api/wallet/withdrawAll",
    operation_id="withdrawAll",
    tags=["wallet"],
    response_model=WithdrawResponse,
    responses=WITHDRAW_ERRORS,
)
async def withdraw_all(
    request: Request,
    body: WithdrawRequest,
    session: SessionDep,
    member: CurrentMember,
    credentials: BearerCredentials,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Any:
    """The same as ``/api/wallet/withdraw`` (the withdraw modal calls this one)."""
    del member  # solved first: without a login, 401 before the body is looked at
    return await _withdraw(request.app.state.engine, session, credentials, body, idempotency_key)


def _note(stored: dict[str, Any], language: Language) -> StatementNote:
    """A stored note in the asked locale: rendered from its code, or as it was stored (a line
    written before notes had codes)."""
    code = stored.get("code")
    if not isinstance(code, str):
        return StatementNote(description=str(stored.get("description", "")))
    params = stored.get("params") if isinstance(stored.get("params"), dict) else {}
    return StatementNote(
        description=render(code, params, language.locale, fallback=language.fallback),
        code=code,
        params=params_in(params, language.locale, fallback=language.fallback),
    )


def _line(statement: Statement, language: Language) -> StatementLine:
    extra = statement.extra or {}
    notes = {key: _note(value, language) for key, value in extra.items() if isinstance(value, dict)}
    return StatementLine(
        id=str(statement.id),
        statement_type=statement.statement_type,
        status=statement.status,
        from_=statement.from_label,
        to=statement.to_label,
        amount=statement.amount,
        created_at=statement.created_at,
        bonus=notes.get("bonus"),
        promotion=notes.get("promotion"),
        invite=notes.get("invite"),
        refund=notes.get("refund"),
        luckydraw=notes.get("luckydraw"),
        withdraw=notes.get("withdraw"),
    )


@router.post(
    "/api/statement",
    operation_id="listStatements",
    tags=["statement"],
    response_model=StatementsResponse,
    response_model_exclude_none=True,
    responses={**AUTH_ERRORS, **errors(_422="KEY_MISSING | KEY_INVALID")},
)
async def statements(
    body: PageRequest, session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> StatementsResponse:
    """The member's own statement lines, newest first, one page at a time."""
    total, rows = await list_statements(session, member_id=member.id, page=body)
    return StatementsResponse(total=total, statements=[_line(row, language) for row in rows])


router.include_router(reads)


def lean_endpoints() -> list[tuple[APIRoute, LeanEndpoint]]:
    """The routes the fast lane answers in front of the routing, as declared (their
    metrics label, their contract), with their lean endpoints: ``GET /api/wallet`` with
    :func:`wallet_read`, the withdrawal's two paths with :func:`withdraw_lean`."""
    routes = (*router.routes, *reads.routes)
    return [
        (declared_route(routes, "/api/wallet"), wallet_read),
        (declared_route(routes, "/api/wallet/withdraw"), withdraw_lean),
        (declared_route(routes, "/api/wallet/withdrawAll"), withdraw_lean),
    ]
