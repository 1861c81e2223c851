"""HTTP routes of player protection: ``GET /api/protection``, ``PUT /api/protection/limits``,
``PUT /api/protection/loss-limits``, ``POST /api/protection/exclusion``,
``POST /api/protection/exclusion/end``, ``GET|PUT /api/protection/reality-check``."""

from __future__ import annotations

from fastapi import APIRouter

from pao.core.errors import Unauthorized
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentLogin, CurrentMember
from pao.identity.models import ExclusionKind, Member
from pao.kit.clock import utcnow
from pao.protection import reality, service
from pao.protection.schemas import (
    ExclusionIn,
    ExclusionOut,
    LimitOut,
    LimitsIn,
    ProtectionOut,
    RealityCheckIn,
    RealityCheckOut,
)

router = APIRouter(route_class=UnitOfWorkRoute, tags=["protection"])

REFUSED = {**AUTH_ERRORS, **errors(_400="PROTECTION_CHANGE_REFUSED", _422="KEY_INVALID")}


async def _state(session: SessionDep, member: Member) -> ProtectionOut:
    exclusion = await service.current_exclusion(session, member.id)
    now = utcnow()
    excluded = service.is_excluded(member, now)
    shown = None
    if exclusion is not None and excluded:
        until = member.excluded_until
        shown = ExclusionOut(
            kind=exclusion.kind,
            starts_at=exclusion.starts_at,
            ends_at=exclusion.ends_at,
            until=None if until is None or until >= service.FOREVER else until,
            end_requested_at=exclusion.end_requested_at,
            can_request_end=exclusion.kind == ExclusionKind.SELF_EXCLUSION
            and exclusion.ends_at is not None
            and exclusion.ends_at <= now
            and exclusion.end_requested_at is None,
        )
    return ProtectionOut(
        limits=LimitOut.of_states(await service.limits(session, member.id)),
        loss_limits=LimitOut.of_states(await service.limits(session, member.id, "loss")),
        excluded=excluded,
        exclusion=shown,
        reality_check_minutes=await reality.interval(session, member.id),
    )


@router.get(
    "/api/protection",
    operation_id="protection",
    response_model=ProtectionOut,
    responses=AUTH_ERRORS,
)
async def protection(session: SessionDep, member: CurrentMember) -> ProtectionOut:
    """The member's deposit limits and any time-out or self-exclusion."""
    return await _state(session, member)


@router.put(
    "/api/protection/limits",
    operation_id="setDepositLimits",
    response_model=ProtectionOut,
    responses=REFUSED,
)
async def set_limits(body: LimitsIn, session: SessionDep, member: CurrentMember) -> ProtectionOut:
    """Set the deposit limits (null: none). Lower: at once; higher or removed: after 24 h."""
    for period in ("day", "week", "month"):
        await service.set_limit(session, member, period, getattr(body, period))
    return await _state(session, member)


@router.put(
    "/api/protection/loss-limits",
    operation_id="setLossLimits",
    response_model=ProtectionOut,
    responses=REFUSED,
)
async def set_loss_limits(
    body: LimitsIn, session: SessionDep, member: CurrentMember
) -> ProtectionOut:
    """Set the loss limits (deposits less withdrawals; null: none), with the deposit limits'
    rules: lower at once, higher or removed after 24 h."""
    for period in ("day", "week", "month"):
        await service.set_limit(session, member, period, getattr(body, period), "loss")
    return await _state(session, member)


@router.post(
    "/api/protection/exclusion",
    operation_id="startExclusion",
    response_model=ProtectionOut,
    responses=REFUSED,
)
async def start_exclusion(
    body: ExclusionIn, session: SessionDep, member: CurrentMember
) -> ProtectionOut:
    """Take a time-out or self-exclude (never shorter than one already running)."""
    await service.exclude(session, member, ExclusionKind(body.kind), body.days)
    return await _state(session, member)


@router.post(
    "/api/protection/exclusion/end",
    operation_id="endExclusion",
    response_model=ProtectionOut,
    responses=REFUSED,
)
async def end_exclusion(session: SessionDep, member: CurrentMember) -> ProtectionOut:
    """Ask a self-exclusion whose period is over to end: play opens 24 hours later."""
    await service.request_end(session, member)
    return await _state(session, member)


@router.get(
    "/api/protection/reality-check",
    operation_id="realityCheck",
    response_model=RealityCheckOut,
    responses=AUTH_ERRORS,
)
async def reality_check(session: SessionDep, login: CurrentLogin) -> RealityCheckOut:
    """The reminder's interval, when this login began and the net result from play since
    then. The app asks once when it starts and once each time a reminder is due."""
    # Loaded with the login (the identity map answers without a statement).
    member = await session.get(Member, login.member_id)
    if member is None:  # pragma: no cover - a login's member always exists
        raise Unauthorized()
    return RealityCheckOut(
        minutes=await reality.interval(session, member.id),
        login_at=login.created_at,
        now=utcnow(),
        net=await reality.net_since(session, member, login.created_at),
        currency=member.currency,
    )


@router.put(
    "/api/protection/reality-check",
    operation_id="setRealityCheck",
    response_model=ProtectionOut,
    responses=REFUSED,
)
async def set_reality_check(
    body: RealityCheckIn, session: SessionDep, member: CurrentMember
) -> ProtectionOut:
    """Choose the reality-check interval (15, 30, 45, 60, 90 or 120 minutes) or null: off."""
    await reality.set_interval(session, member, body.minutes)
    return await _state(session, member)
