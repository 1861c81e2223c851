"""Refund (cashback): its history, checking, receiving and moving it to the wallet, the banners."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pao.core.language import RequestLanguage
from pao.core.openapi import AUTH_ERRORS, VALIDATION, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.kit.idempotency import IdempotencyKeyHeader
from pao.kit.pagination import PageRequest
from pao.promotions import refund
from pao.promotions.content import banners_out
from pao.promotions.routes.common import KEY_ERRORS, PAGE_ERRORS, once
from pao.promotions.schemas import (
    BannerOut,
    MoneyMessageOut,
    RefundCheckOut,
    RefundInfo,
    RefundLineOut,
    RefundsOut,
)
from pao.site.settings import load_site_settings

router = APIRouter(route_class=UnitOfWorkRoute)


@router.post(
    "/api/refund",
    operation_id="listRefunds",
    tags=["refund"],
    response_model=RefundsOut,
    responses=PAGE_ERRORS,
)
async def list_refunds(body: PageRequest, session: SessionDep, member: CurrentMember) -> RefundsOut:
    total, rows = await refund.list_receipts(session, member_id=member.id, page=body)
    return RefundsOut(
        total=total,
        refunds=[
            RefundLineOut(refund_amount=r.amount, status=r.status, created_at=r.created_at)
            for r in rows
        ],
    )


@router.get(
    "/api/refund/check",
    operation_id="checkRefund",
    tags=["refund"],
    response_model=RefundCheckOut,
    responses=AUTH_ERRORS,
)
async def check_refund(
    request: Request, session: SessionDep, member: CurrentMember
) -> RefundCheckOut:
    state = await refund.state(request.app, session, member=member)
    return RefundCheckOut(
        result=state.can_receive,
        bonus=state.has_bonus,
        info=RefundInfo(
            period="week" if state.period == "week" else "day",
            period_start=state.period_start,
            percent=state.rate_bp / 100,
            net_loss=state.net_loss,
            minimum=state.minimum,
            enabled=state.enabled,
        ),
        refund_amount=state.receivable,
        refund_success=state.waiting,
        refund_fail=state.over_cap,
    )


REFUND_ERRORS = {
    **AUTH_ERRORS,
    **errors(_400="NO_REFUND | REFUND_CONDITION | REFUND_INACTIVE | REFUND_MINIMUM", **KEY_ERRORS),
}


@router.get(
    "/api/refund/receive",
    operation_id="receiveRefund",
    tags=["refund"],
    response_model=MoneyMessageOut,
    responses=REFUND_ERRORS,
)
async def receive_refund(
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Receive this period's refund (then add it to the wallet)."""

    async def action() -> MoneyMessageOut:
        receipt = await refund.receive(request.app, session, member=member)
        return MoneyMessageOut(message="REFUND_SUCCESS", amount=receipt.amount)

    return await once(session, member, idempotency_key, "refund.receive", {}, action)


@router.get(
    "/api/refund/addWallet",
    operation_id="addRefundToWallet",
    tags=["refund"],
    response_model=MoneyMessageOut,
    responses=errors(_400="NO_REFUND | REFUND_CONDITION | REFUND_INACTIVE", **KEY_ERRORS)
    | AUTH_ERRORS,
)
async def add_refund_to_wallet(
    session: SessionDep, member: CurrentMember, idempotency_key: IdempotencyKeyHeader = None
) -> JSONResponse:
    """Pay every received refund into the wallet."""

    async def action() -> MoneyMessageOut:
        amount = await refund.add_to_wallet(session, member=member)
        return MoneyMessageOut(message="REFUND_SUCCESS", amount=amount)

    return await once(session, member, idempotency_key, "refund.addWallet", {}, action)


@router.get(
    "/api/refund/banners",
    operation_id="refundBanners",
    tags=["refund"],
    response_model=list[BannerOut],
    responses={**AUTH_ERRORS, **VALIDATION},
)
async def refund_banners(
    session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> list[BannerOut]:
    return banners_out((await load_site_settings(session)).refund_banners, language)
