"""Invite: the members a member invited, collecting the invite bonus, the banners."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from pao.core.language import RequestLanguage
from pao.core.openapi import AUTH_ERRORS, VALIDATION, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.kit.idempotency import IdempotencyKeyHeader
from pao.kit.pagination import PageRequest
from pao.promotions import invite
from pao.promotions.content import banners_out
from pao.promotions.routes.common import KEY_ERRORS, PAGE_ERRORS, once
from pao.promotions.schemas import (
    BannerOut,
    InviteFrom,
    InviteLineOut,
    InvitesOut,
    MoneyMessageOut,
)
from pao.protection.service import ensure_may_play
from pao.site.settings import load_site_settings

router = APIRouter(route_class=UnitOfWorkRoute)


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
    responses={
        **AUTH_ERRORS,
        **errors(_400="NO_INVITE_BONUS | INVITE_INACTIVE", _403="PLAY_EXCLUDED", **KEY_ERRORS),
    },
)
async def collect_invite_bonus(
    session: SessionDep, member: CurrentMember, idempotency_key: IdempotencyKeyHeader = None
) -> JSONResponse:
    """Receive the accrued invite income into the wallet (``INVITE_BONUS_SUCCESS``)."""
    ensure_may_play(member)

    async def action() -> MoneyMessageOut:
        collection = await invite.collect(session, member=member)
        return MoneyMessageOut(message="INVITE_BONUS_SUCCESS", amount=collection.amount)

    return await once(session, member, idempotency_key, "invite.collect", {}, action)


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
