"""The prize wheel: its set-up, a spin, the coupons won and claiming them."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from pao.core.language import Language, RequestLanguage
from pao.core.openapi import AUTH_ERRORS, VALIDATION, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.kit.idempotency import IdempotencyKeyHeader, run_idempotent
from pao.promotions import wheel
from pao.promotions.content import prize_name, slice_description
from pao.promotions.exceptions import SpinInactive
from pao.promotions.models import CouponStatus, WheelCoupon
from pao.promotions.models import WheelSlice as SliceRow
from pao.promotions.routes.common import KEY_ERRORS
from pao.promotions.schemas import (
    ActiveOut,
    ClaimIn,
    ClaimOut,
    CouponOut,
    CouponPrize,
    CouponSlice,
    OddsOut,
    SliceOut,
    SpinOut,
    SpinResult,
    WheelSetupOut,
)
from pao.protection.service import ensure_may_play

router = APIRouter(route_class=UnitOfWorkRoute)


def _slice(row: SliceRow, language: Language) -> SliceOut:
    return SliceOut(
        code=row.code,
        label=language.pick(row.label),
        bg_color=row.bg_color,
        text_color=row.text_color,
        html_description=slice_description(row, language),
    )


@router.get(
    "/api/spinwheel/setup",
    operation_id="spinWheelSetup",
    tags=["spinwheel"],
    response_model=WheelSetupOut,
    responses={**AUTH_ERRORS, **VALIDATION, **errors(_400="SPIN_INACTIVE")},
)
async def wheel_setup(
    session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> WheelSetupOut:
    """The active wheel, the member's coins and the published odds of every slice."""
    active = await wheel.active_wheel(session, currency=member.currency)
    if active is None:
        raise SpinInactive()
    slices = await wheel.slices_of(session, wheel_id=active.id)
    odds = wheel.slice_odds(slices)
    return WheelSetupOut(
        name=language.pick(active.name),
        slice=[_slice(s, language) for s in slices],
        user_coin=await wheel.coins_of(session, member_id=member.id),
        odds=[
            OddsOut(code=s.code, label=language.pick(s.label), probability=float(odds[s.id]))
            for s in slices
        ],
    )


@router.post(
    "/api/spinwheel/spin",
    operation_id="spinWheel",
    tags=["spinwheel"],
    response_model=SpinOut,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="SPIN_INACTIVE | NO_COIN | CURRENCY_NOT_OFFERED",
            _403="PLAY_EXCLUDED",
            **KEY_ERRORS,
        ),
    },
)
async def spin(
    session: SessionDep,
    member: CurrentMember,
    language: RequestLanguage,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Spend one coin and spin; a prize slice issues a coupon."""
    ensure_may_play(member)

    async def action() -> BaseModel:
        outcome = await wheel.spin(session, member=member)
        slices = await wheel.slices_of(session, wheel_id=outcome.slice.wheel_id)
        return SpinOut(
            success=True,
            result=SpinResult(
                code=outcome.slice.code,
                label=language.pick(outcome.slice.label),
                index=[s.id for s in slices].index(outcome.slice.id),
                remaining_coin=outcome.remaining_coin,
                coupon=outcome.coupon.code if outcome.coupon else None,
            ),
        )

    # The answer is already JSON (major units): returned as is, not re-validated.
    return JSONResponse(
        await run_idempotent(
            session,
            owner=f"member:{member.id}",
            key=idempotency_key,
            operation="spinwheel.spin",
            payload={},
            action=action,
        )
    )


def _prize(slice_: SliceRow, language: Language) -> CouponPrize:
    return CouponPrize(
        name=prize_name(slice_, language),
        slice=CouponSlice(
            code=slice_.code,
            label=language.pick(slice_.label),
            html_description=slice_description(slice_, language),
        ),
    )


def _coupon(coupon: WheelCoupon, slice_: SliceRow, language: Language) -> CouponOut:
    from pao.kit.clock import utcnow

    return CouponOut(
        id=str(coupon.id),
        coupon=coupon.code,
        prize=_prize(slice_, language),
        type=coupon.prize_type,
        amount=coupon.amount,
        status=coupon.status,
        claimable=coupon.status == CouponStatus.ISSUED
        and coupon.expires_at > utcnow()
        and coupon.prize_type == "credit",
        expires_at=coupon.expires_at,
        created_at=coupon.created_at,
    )


@router.get(
    "/api/spinwheel/coupon",
    operation_id="listCoupons",
    tags=["spinwheel"],
    response_model=list[CouponOut],
    responses={**AUTH_ERRORS, **VALIDATION},
)
async def list_coupons(
    session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> list[CouponOut]:
    """The member's coupons, newest first (at most 100)."""
    coupons = await wheel.list_coupons(session, member_id=member.id)
    return [_coupon(c, s, language) for c, s in coupons]


@router.post(
    "/api/spinwheel/coupon/claim",
    operation_id="claimCoupon",
    tags=["spinwheel"],
    response_model=ClaimOut,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="NO_CLAIMABLE_COUPON | INVALID_PRIZE_CODE | INVALID_CODE | INVALID_COUPON_TYPE"
            " | COUPON_EXPIRED | BONUS_REMAINING | CURRENCY_NOT_OFFERED",
            _409="IDEMPOTENCY_KEY_REUSED",
            _422="KEY_MISSING | KEY_INVALID",
        ),
    },
)
async def claim_coupon(
    body: ClaimIn,
    session: SessionDep,
    member: CurrentMember,
    language: RequestLanguage,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Pay a coupon's prize into the wallet, once."""

    async def action() -> BaseModel:
        coupon, slice_ = await wheel.claim(session, member=member, code=body.coupon)
        return ClaimOut(
            message="SUCCESS",
            prize=_prize(slice_, language),
            amount=coupon.amount,
        )

    return JSONResponse(
        await run_idempotent(
            session,
            owner=f"member:{member.id}",
            key=idempotency_key,
            operation="spinwheel.claim",
            payload={"coupon": body.coupon},
            action=action,
        )
    )


@router.get(
    "/api/spinwheel/active",
    operation_id="spinWheelActive",
    tags=["spinwheel"],
    response_model=ActiveOut,
    responses=AUTH_ERRORS,
)
async def spin_active(session: SessionDep, member: CurrentMember) -> ActiveOut:
    active = await wheel.active_wheel(session, currency=member.currency)
    return ActiveOut(is_active=active is not None)
