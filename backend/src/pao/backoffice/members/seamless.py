"""A member's seamless play (``members.read``, like the member page's other tabs): the rounds and
the transactions each provider sent, filtered (provider, time, open or closed), one page, or
every matching row as CSV (streamed in keyset chunks, amounts in major units). Reads: nothing
is audited."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Query, Request
from fastapi.responses import StreamingResponse
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.backoffice.deps import require
from pao.backoffice.members.schemas import (
    SeamlessRoundOut,
    SeamlessRoundQuery,
    SeamlessTxnOut,
    SeamlessTxnQuery,
)
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.games.seamless import history
from pao.games.seamless.models import SeamlessRound, SeamlessTransaction
from pao.identity.admin import get_member
from pao.kit.pagination import Page
from pao.reports import export
from pao.reports.tables import Kind, Row, Table, columns

router = backoffice_router()

Reader = Annotated[Staff, Depends(require(Permission.MEMBERS_READ))]
READ = {**AUTHENTICATED, **errors(_404="NO_USER"), **VALIDATION}
CSV = {
    200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "CSV"},
    **READ,
}

ROUND_COLUMNS = columns(
    provider=Kind.TEXT,
    round_id=Kind.TEXT,
    game=Kind.TEXT,
    currency=Kind.TEXT,
    bets=Kind.MONEY,
    wins=Kind.MONEY,
    net=Kind.MONEY,
    opened_at=Kind.TEXT,
    closed_at=Kind.TEXT,
)
TXN_COLUMNS = columns(
    time=Kind.TEXT,
    provider=Kind.TEXT,
    kind=Kind.TEXT,
    txn_id=Kind.TEXT,
    round_id=Kind.TEXT,
    game=Kind.TEXT,
    currency=Kind.TEXT,
    amount=Kind.MONEY,
    reference=Kind.TEXT,
    rolled_back=Kind.TEXT,
)


def _round_filter(member_id: int, q: SeamlessRoundQuery) -> history.RoundFilter:
    return history.RoundFilter(
        member_id=member_id,
        provider=q.provider,
        since=q.since,
        until=q.until,
        open=None if q.state is None else q.state == "open",
    )


def _txn_filter(member_id: int, q: SeamlessTxnQuery) -> history.TxnFilter:
    return history.TxnFilter(
        member_id=member_id, provider=q.provider, since=q.since, until=q.until, round_id=q.round
    )


def _round_row(r: SeamlessRound) -> Row:
    closed = r.closed_at.isoformat() if r.closed_at is not None else ""
    return (
        r.provider,
        r.round_id,
        r.game_code,
        r.currency,
        r.bets,
        r.wins,
        r.wins - r.bets,
        r.opened_at.isoformat(),
        closed,
    )


def _txn_row(t: SeamlessTransaction) -> Row:
    return (
        t.created_at.isoformat(),
        t.provider,
        t.kind,
        t.txn_id,
        t.round_id,
        t.game_code,
        t.currency,
        t.amount,
        t.reference_id or "",
        "yes" if t.rolled_back else "",
    )


def _csv(name: str, table: Table) -> StreamingResponse:
    return StreamingResponse(
        export.stream(table),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _sessions(request: Request) -> async_sessionmaker[AsyncSession]:
    sessionmaker: async_sessionmaker[AsyncSession] = request.app.state.read_sessionmaker
    return sessionmaker


@router.get(
    "/members/{member_id}/seamless/rounds",
    operation_id="backofficeMemberSeamlessRounds",
    response_model=Page[SeamlessRoundOut],
    responses=READ,
    summary="The member's seamless rounds (provider, time opened, open or closed), newest first",
)
async def rounds(
    member_id: DbId,
    query: Annotated[SeamlessRoundQuery, Query()],
    session: SessionDep,
    staff: Reader,
) -> Page[SeamlessRoundOut]:
    await get_member(session, member_id)
    total, rows = await history.rounds(
        session,
        _round_filter(member_id, query),
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
    )
    return Page[SeamlessRoundOut].of(rows, SeamlessRoundOut.of, total=total, request=query)


@router.get(
    "/members/{member_id}/seamless/rounds.csv",
    operation_id="backofficeMemberSeamlessRoundsCsv",
    response_class=StreamingResponse,
    responses=CSV,
    summary="Every seamless round of the member matching the filters, as CSV (streamed)",
)
async def rounds_csv(
    member_id: DbId,
    request: Request,
    query: Annotated[SeamlessRoundQuery, Query()],
    session: SessionDep,
    staff: Reader,
) -> StreamingResponse:
    await get_member(session, member_id)
    sessions, found = _sessions(request), _round_filter(member_id, query)

    async def chunks() -> AsyncIterator[list[Row]]:
        async for chunk in history.round_chunks(sessions, found):
            yield [_round_row(r) for r in chunk]

    return _csv(f"pao-member-{member_id}-rounds.csv", Table("rounds", ROUND_COLUMNS, chunks=chunks))


@router.get(
    "/members/{member_id}/seamless/transactions",
    operation_id="backofficeMemberSeamlessTransactions",
    response_model=Page[SeamlessTxnOut],
    responses=READ,
    summary="The member's seamless transactions (provider, time, round), newest first",
)
async def transactions(
    member_id: DbId,
    query: Annotated[SeamlessTxnQuery, Query()],
    session: SessionDep,
    staff: Reader,
) -> Page[SeamlessTxnOut]:
    await get_member(session, member_id)
    total, rows = await history.transactions(
        session,
        _txn_filter(member_id, query),
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
    )
    return Page[SeamlessTxnOut].of(rows, SeamlessTxnOut.of, total=total, request=query)


@router.get(
    "/members/{member_id}/seamless/transactions.csv",
    operation_id="backofficeMemberSeamlessTransactionsCsv",
    response_class=StreamingResponse,
    responses=CSV,
    summary="Every seamless transaction of the member matching the filters, as CSV (streamed)",
)
async def transactions_csv(
    member_id: DbId,
    request: Request,
    query: Annotated[SeamlessTxnQuery, Query()],
    session: SessionDep,
    staff: Reader,
) -> StreamingResponse:
    await get_member(session, member_id)
    sessions, found = _sessions(request), _txn_filter(member_id, query)

    async def chunks() -> AsyncIterator[list[Row]]:
        async for chunk in history.transaction_chunks(sessions, found):
            yield [_txn_row(t) for t in chunk]

    name = f"pao-member-{member_id}-transactions.csv"
    return _csv(name, Table("transactions", TXN_COLUMNS, chunks=chunks))
