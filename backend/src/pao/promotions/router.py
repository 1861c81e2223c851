"""HTTP routes of pao.promotions: bonuses, promotion codes, invite, refund, prize wheel.

The contract makes several money-moving calls ``GET``s (activate, clear, invite bonus, refund
receive/addWallet). They are idempotent by *state*: each runs under the member lock and pays
only what is still due, so a repeated or concurrent call pays nothing more. Like every money
call they also honour an ``Idempotency-Key`` (money rule 5), so that a retry after a lost
answer gets the first answer again rather than a refusal such as ``NO_INVITE_BONUS``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from pao.core.language import Language, RequestLanguage
from pao.core.openapi import AUTH_ERRORS, VALIDATION, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.kit.idempotency import IdempotencyKeyHeader, run_idempotent
from pao.kit.pagination import PageRequest
from pao.promotions import bonuses, invite, refund, wheel
from pao.promotions.common import active_bonus
from pao.promotions.content import banners_out, prize_name, slice_description
from pao.promotions.exceptions import SpinInactive
from pao.promotions.models import Bonus, BonusKind, CouponStatus, MemberBonus, WheelCoupon
from pao.promotions.models import WheelSlice as SliceRow
from pao.promotions.schemas import (
    ActiveCheckOut,
    ActiveOut,
    BannerOut,
    BonusItem,
    ClaimIn,
    ClaimOut,
    CouponOut,
    CouponPrize,
    CouponSlice,
    GrantOut,
    InviteFrom,
    InviteLineOut,
    InvitesOut,
    MessageOut,
    MinimumOut,
    MoneyMessageOut,
    OddsOut,
    PromotionOut,
    ReceivedOut,
    RefundCheckOut,
    RefundInfo,
    RefundLineOut,
    RefundsOut,
    SliceOut,
    SpinOut,
    SpinResult,
    UserBonusOut,
    WheelSetupOut,
)
from pao.site.settings import load_site_settings

router = APIRouter(route_class=UnitOfWorkRoute)

PAGE_ERRORS = {**AUTH_ERRORS, **errors(_422="KEY_MISSING | KEY_INVALID")}
# What an Idempotency-Key adds to a route's answers: reused for another request, or malformed.
KEY_ERRORS = {"_409": "IDEMPOTENCY_KEY_REUSED", "_422": "KEY_INVALID"}


async def _once(
    session: SessionDep,
    member: CurrentMember,
    key: str | None,
    operation: str,
    payload: dict[str, Any],
    action: Callable[[], Awaitable[BaseModel]],
) -> JSONResponse:
    """Run a money call once per Idempotency-Key; the answer is already JSON (major units),
    so it is returned as is, not re-validated."""
    answer = await run_idempotent(
        session,
        owner=f"member:{member.id}",
        key=key,
        operation=operation,
        payload=payload,
        action=action,
    )
    return JSONResponse(answer)


def _received(rows: list[MemberBonus]) -> list[ReceivedOut]:
    return [ReceivedOut(updated_at=row.received_at) for row in rows]


# ── bonuses ──────────────────────────────────────────────────────────────────────────────


@router.get(
    "/api/bonus",
    operation_id="listBonuses",
    tags=["bonus"],
    response_model=list[BonusItem],
    responses={**AUTH_ERRORS, **VALIDATION},
)
async def list_bonuses(
    session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> list[BonusItem]:
    """Active bonuses with the member's receipts of each (``userBonus``)."""
    receipts = await bonuses.receipts_of(session, member_id=member.id)
    items = []
    for bonus in await bonuses.list_bonuses(session):
        mine = [r for r in receipts if r.bonus_id == bonus.id]
        user_bonus = (
            UserBonusOut(
                id=str(mine[0].id),
                is_active=any(r.status == "ACTIVE" for r in mine),
                received=_received(mine),
            )
            if mine
            else None
        )
        items.append(
            BonusItem(
                code=bonus.code,
                type=bonus.type,
                name=language.pick(bonus.name),
                description=language.pick(bonus.description),
                max_received=bonus.max_received,
                percent_fail=bonus.percent_fail,
                percent=bonus.percent,
                fixed_amount=bonus.fixed_amount,
                max_amount=bonus.max_amount,
                min_deposit=bonus.min_deposit,
                turnover_multiplier=bonus.turnover_multiplier,
                banners=banners_out(bonus.banners or [], language),
                user_bonus=user_bonus,
            )
        )
    return items


async def _grant_out(session: SessionDep, grant: MemberBonus) -> GrantOut:
    bonus = await session.get(Bonus, grant.bonus_id)
    assert bonus is not None
    receipts = [
        r
        for r in await bonuses.receipts_of(session, member_id=grant.member_id)
        if r.bonus_id == bonus.id
    ]
    return GrantOut(
        id=str(grant.id),
        code=bonus.code,
        type=bonus.type,
        is_active=grant.status == "ACTIVE",
        amount=grant.bonus_amount,
        deposit=grant.deposit_amount,
        turnover_required=grant.turnover_required,
        percent_fail=grant.percent_fail,
        received=_received(receipts),
    )


ACTIVATE_ERRORS = {
    **AUTH_ERRORS,
    **errors(
        _400="BONUS_ALREADY_ACTIVE | BONUS_MAX_CLAIMED | BONUS_CONDITION",
        _404="NO_DATA",
        **KEY_ERRORS,
    ),
}


@router.get(
    "/api/bonus/activate/{code}",
    operation_id="activateBonus",
    tags=["bonus"],
    response_model=GrantOut,
    responses=ACTIVATE_ERRORS,
)
async def activate_bonus(
    code: str,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Receive a bonus: pays it into the wallet and starts its turnover condition."""

    async def action() -> GrantOut:
        grant = await bonuses.activate_bonus(session, member=member, code=code)
        return await _grant_out(session, grant)

    return await _once(session, member, idempotency_key, "bonus.activate", {"code": code}, action)


@router.get(
    "/api/bonus/check/active",
    operation_id="checkActiveBonus",
    tags=["bonus"],
    response_model=ActiveCheckOut,
    response_model_exclude_none=True,
    responses={**AUTH_ERRORS, **VALIDATION},
)
async def check_active(
    request: Request, session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> ActiveCheckOut:
    """Whether a bonus is active, its type, and its progress."""
    grant = await active_bonus(session, member_id=member.id)
    if grant is None:
        return ActiveCheckOut(status=False)
    state = await bonuses.progress(request.app, session, member=member, grant=grant)
    return ActiveCheckOut(
        status=True,
        type=state.bonus.type,
        code=state.bonus.code,
        name=language.pick(state.bonus.name),
        amount=grant.bonus_amount,
        turnover=state.turnover,
        turnover_required=grant.turnover_required,
        percent_fail=grant.percent_fail,
        can_clear=state.turnover_met or state.percent_fail_reached,
    )


@router.get(
    "/api/bonus/check/minimum",
    operation_id="checkBonusMinimum",
    tags=["bonus"],
    response_model=MinimumOut,
    responses=AUTH_ERRORS,
)
async def check_minimum(session: SessionDep, member: CurrentMember) -> MinimumOut:
    """Whether a recent deposit is waiting to qualify for a bonus."""
    minimum = await bonuses.check_minimum(session, member=member)
    return MinimumOut(status=minimum.status, amount=minimum.amount)


@router.get(
    "/api/bonus/clear",
    operation_id="clearBonus",
    tags=["bonus"],
    response_model=MessageOut,
    responses={**AUTH_ERRORS, **errors(_400="BONUS_CONDITION", **KEY_ERRORS)},
)
async def clear_bonus(
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """End the active bonus: ``BONUS_CLEAR`` (turnover met), ``OK`` (balance under
    percentFail, or nothing active)."""

    async def action() -> MessageOut:
        return MessageOut(message=await bonuses.clear(request.app, session, member=member))

    return await _once(session, member, idempotency_key, "bonus.clear", {}, action)


# ── promotion codes ──────────────────────────────────────────────────────────────────────


def _promotion(bonus: Bonus, language: Language) -> PromotionOut:
    return PromotionOut(
        code=bonus.code,
        percent_fail=bonus.percent_fail,
        description=language.pick(bonus.description),
    )


@router.get(
    "/api/promotion/find/{code}",
    operation_id="findPromotion",
    tags=["promotion"],
    response_model=PromotionOut,
    response_model_exclude_none=True,
    responses={**AUTH_ERRORS, **VALIDATION},
)
async def find_promotion(
    code: str, session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> PromotionOut:
    """The promotion of an (upper-cased) code, or ``{}``."""
    bonus = await bonuses.find_promotion(session, code=code)
    return _promotion(bonus, language) if bonus else PromotionOut()


@router.get(
    "/api/promotion/activate/{code}",
    operation_id="activatePromotion",
    tags=["promotion"],
    response_model=GrantOut,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="NO_PROMOTION | PROMOTION_RECEIVED | BONUS_FULL | BONUS_ALREADY_ACTIVE"
            " | BONUS_MAX_CLAIMED | BONUS_CONDITION",
            **KEY_ERRORS,
        ),
    },
)
async def activate_promotion(
    code: str,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Redeem a promotion code (upper-cased): paid like a bonus, once per member."""

    async def action() -> GrantOut:
        grant = await bonuses.activate_promotion(session, member=member, code=code)
        return await _grant_out(session, grant)

    payload = {"code": code.upper()}
    return await _once(session, member, idempotency_key, "promotion.activate", payload, action)


@router.get(
    "/api/promotion/current",
    operation_id="currentPromotion",
    tags=["promotion"],
    response_model=PromotionOut,
    response_model_exclude_none=True,
    responses={**AUTH_ERRORS, **VALIDATION},
)
async def current_promotion(
    session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> PromotionOut:
    """The active bonus if it came from a promotion code, else ``{}``."""
    grant = await active_bonus(session, member_id=member.id)
    if grant is None:
        return PromotionOut()
    bonus = await session.get(Bonus, grant.bonus_id)
    if bonus is None or bonus.kind != BonusKind.PROMOTION:
        return PromotionOut()
    return _promotion(bonus, language)


# ── invite ───────────────────────────────────────────────────────────────────────────────


@router.post(
    "/api/invite",
    operation_id="listInvites",
    tags=["invite"],
    response_model=InvitesOut,
    responses=PAGE_ERRORS,
)
async def list_invites(body: PageRequest, session: SessionDep, member: CurrentMember) -> InvitesOut:
    """Invite income earned from invitees' deposits, newest first."""
    total, lines = await invite.list_incomes(session, member_id=member.id, page=body)
    return InvitesOut(
        total=total,
        invites=[
            InviteLineOut(
                from_=InviteFrom(name=line.name),
                amount=line.amount,
                created_at=line.income.created_at,
            )
            for line in lines
        ],
    )


@router.get(
    "/api/invite/bonus",
    operation_id="collectInviteBonus",
    tags=["invite"],
    response_model=MoneyMessageOut,
    responses={**AUTH_ERRORS, **errors(_400="NO_INVITE_BONUS | INVITE_INACTIVE", **KEY_ERRORS)},
)
async def collect_invite_bonus(
    session: SessionDep, member: CurrentMember, idempotency_key: IdempotencyKeyHeader = None
) -> JSONResponse:
    """Receive the accrued invite income into the wallet (``INVITE_BONUS_SUCCESS``)."""

    async def action() -> MoneyMessageOut:
        collection = await invite.collect(session, member=member)
        return MoneyMessageOut(message="INVITE_BONUS_SUCCESS", amount=collection.amount)

    return await _once(session, member, idempotency_key, "invite.collect", {}, action)


@router.get(
    "/api/invite/banners",
    operation_id="inviteBanners",
    tags=["invite"],
    response_model=list[BannerOut],
    responses={**AUTH_ERRORS, **VALIDATION},
)
async def invite_banners(
    session: SessionDep, member: CurrentMember, language: RequestLanguage
) -> list[BannerOut]:
    return banners_out((await load_site_settings(session)).invite_banners, language)


# ── refund ───────────────────────────────────────────────────────────────────────────────


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

    return await _once(session, member, idempotency_key, "refund.receive", {}, action)


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

    return await _once(session, member, idempotency_key, "refund.addWallet", {}, action)


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


# ── prize wheel ──────────────────────────────────────────────────────────────────────────


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
    active = await wheel.active_wheel(session)
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
        **errors(_400="SPIN_INACTIVE | NO_COIN", **KEY_ERRORS),
    },
)
async def spin(
    session: SessionDep,
    member: CurrentMember,
    language: RequestLanguage,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Spend one coin and spin; a prize slice issues a coupon."""

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
            " | COUPON_EXPIRED | BONUS_REMAINING",
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
    return ActiveOut(is_active=await wheel.active_wheel(session) is not None)
