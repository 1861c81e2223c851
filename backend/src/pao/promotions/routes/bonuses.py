"""Bonuses: the catalogue a member sees, activating one, checking and clearing the active one."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pao.core.language import RequestLanguage
from pao.core.openapi import AUTH_ERRORS, VALIDATION, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.identity.device import device_id
from pao.kit.idempotency import IdempotencyKeyHeader
from pao.promotions import bonuses
from pao.promotions.common import active_bonus
from pao.promotions.content import banners_out
from pao.promotions.routes.common import KEY_ERRORS, grant_out, once, received
from pao.promotions.schemas import (
    ActiveCheckOut,
    BonusItem,
    GrantOut,
    MessageOut,
    MinimumOut,
    UserBonusOut,
)
from pao.protection.service import ensure_may_play

router = APIRouter(route_class=UnitOfWorkRoute)


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
    for bonus in await bonuses.list_bonuses(session, currency=member.currency):
        mine = [r for r in receipts if r.bonus_id == bonus.id]
        user_bonus = (
            UserBonusOut(
                id=str(mine[0].id),
                is_active=any(r.status == "ACTIVE" for r in mine),
                received=received(mine),
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


ACTIVATE_ERRORS = {
    **AUTH_ERRORS,
    **errors(
        _400="BONUS_ALREADY_ACTIVE | BONUS_MAX_CLAIMED | BONUS_DEVICE_CLAIMED | BONUS_CONDITION"
        " | CURRENCY_NOT_OFFERED",
        _403="PLAY_EXCLUDED",
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
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    """Receive a bonus: pays it into the wallet and starts its turnover condition."""
    ensure_may_play(member)

    async def action() -> GrantOut:
        grant = await bonuses.activate_bonus(
            session, member=member, code=code, device_id=device_id(request)
        )
        return await grant_out(session, grant)

    return await once(session, member, idempotency_key, "bonus.activate", {"code": code}, action)


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

    return await once(session, member, idempotency_key, "bonus.clear", {}, action)
