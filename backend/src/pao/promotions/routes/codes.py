"""Promotion codes: finding one, activating it, the member's current promotion."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pao.core.language import Language, RequestLanguage
from pao.core.openapi import AUTH_ERRORS, VALIDATION, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.identity.device import device_id
from pao.kit.idempotency import IdempotencyKeyHeader
from pao.promotions import bonuses
from pao.promotions.common import active_bonus
from pao.promotions.models import Bonus, BonusKind
from pao.promotions.routes.common import KEY_ERRORS, grant_out, once
from pao.promotions.schemas import (
    GrantOut,
    PromotionOut,
)
from pao.protection.service import ensure_may_play

router = APIRouter(route_class=UnitOfWorkRoute)


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
    # A code of another currency is not offered to this member: as an unknown code.
    offered = bonus is not None and bonus.currency == member.currency
    return _promotion(bonus, language) if bonus and offered else PromotionOut()


@router.get(
    "/api/promotion/activate/{code}",
    operation_id="activatePromotion",
    tags=["promotion"],
    response_model=GrantOut,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="NO_PROMOTION | PROMOTION_RECEIVED | BONUS_FULL | BONUS_ALREADY_ACTIVE"
            " | BONUS_MAX_CLAIMED | BONUS_DEVICE_CLAIMED | BONUS_CONDITION | CURRENCY_NOT_OFFERED",
            _403="PLAY_EXCLUDED",
            **KEY_ERRORS,
        ),
    },
)
async def activate_promotion(
    code: str,
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Redeem a promotion code (upper-cased): paid like a bonus, once per member."""
    ensure_may_play(member)

    async def action() -> GrantOut:
        grant = await bonuses.activate_promotion(
            session, member=member, code=code, device_id=device_id(request)
        )
        return await grant_out(session, grant)

    payload = {"code": code.upper()}
    return await once(session, member, idempotency_key, "promotion.activate", payload, action)


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
