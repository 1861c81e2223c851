"""``/api/backoffice/auth/*`` and ``/me``: logging in (password, then TOTP), out, locking and
unlocking the session (:mod:`pao.backoffice.sessions.lock`: the password alone), and the staff
member behind the token. Their own sessions are :mod:`pao.backoffice.sessions.routes`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request, Response, status

from pao.backoffice.deps import (
    PUBLIC,
    AnyStaffSession,
    actor_of,
    idle_timeout,
    require,
    require_even_locked,
)
from pao.backoffice.login import service as auth
from pao.backoffice.login.schemas import (
    LoginIn,
    LoginStepOut,
    MeOut,
    SessionStartedOut,
    TotpIn,
    UnlockIn,
)
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.sessions import lock
from pao.backoffice.staff.roles import Permission
from pao.backoffice.staff.schemas import EnrolmentOut
from pao.core.client import client_ip
from pao.core.login_throttle import LoginThrottle
from pao.core.openapi import VALIDATION, errors
from pao.core.uow import SessionDep

router = backoffice_router()

OwnAccount = Annotated[Staff, Depends(require(Permission.OWN_ACCOUNT))]
# Lock, unlock and logout take a locked session too.
OwnLockedOrNot = Annotated[Staff, Depends(require_even_locked(Permission.OWN_ACCOUNT))]


def _idle_minutes(request: Request) -> int:
    return int(idle_timeout(request).total_seconds() // 60)


def _throttle(request: Request) -> LoginThrottle:
    return auth.staff_throttle(request.app.state.rate_limiter)


@router.post(
    "/auth/login",
    operation_id="backofficeLogin",
    dependencies=[Depends(PUBLIC)],
    response_model=LoginStepOut,
    responses={
        **errors(_401="WRONG_CREDENTIAL", _403="STAFF_DISABLED", _410="gone", _429="REQUEST_LIMIT"),
        **VALIDATION,
    },
    summary="Login step 1: the password; answers a ticket for the code (and the enrolment)",
)
async def login(body: LoginIn, request: Request, session: SessionDep) -> LoginStepOut:
    passed = await auth.check_password(
        session,
        throttle=_throttle(request),
        login=body.login,
        password=body.password,
        ip=client_ip(request),
    )
    return LoginStepOut(
        step="enrol" if passed.enrolment is not None else "code",
        ticket=passed.ticket,
        expires_at=passed.expires_at,
        enrolment=EnrolmentOut.of(passed.enrolment) if passed.enrolment is not None else None,
    )


@router.post(
    "/auth/totp",
    operation_id="backofficeTotp",
    dependencies=[Depends(PUBLIC)],
    response_model=SessionStartedOut,
    responses={
        **errors(
            _401="STAFF_LOGIN_EXPIRED | STAFF_CODE_INVALID | STAFF_CODE_USED",
            _403="STAFF_DISABLED",
            _410="gone",
            _429="REQUEST_LIMIT",
        ),
        **VALIDATION,
    },
    summary="Login step 2: the authenticator's code (the first one confirms an enrolment)",
)
async def totp_step(body: TotpIn, request: Request, session: SessionDep) -> SessionStartedOut:
    token, row, staff = await auth.confirm_code(
        session,
        throttle=_throttle(request),
        ticket=body.ticket,
        code=body.code,
        ip=client_ip(request),
        user_agent=request.headers.get("user-agent"),
    )
    return SessionStartedOut(
        token=token,
        expires_at=row.expires_at,
        staff=MeOut.of_me(staff, idle_lock_minutes=_idle_minutes(request)),
    )


@router.post(
    "/auth/logout",
    operation_id="backofficeLogout",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=AUTHENTICATED,
    summary="End the session of this token",
)
async def logout(
    request: Request, session: SessionDep, staff: OwnLockedOrNot, row: AnyStaffSession
) -> Response:
    await auth.log_out(session, actor=actor_of(request), row=row)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/auth/lock",
    operation_id="backofficeLock",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=AUTHENTICATED,
    summary="Lock the session of this token (idle in the browser, or the staff member's "
    "choice): every call but unlock and logout answers 423 SESSION_LOCKED until unlocked",
)
async def lock_session(
    request: Request,
    session: SessionDep,
    staff: OwnLockedOrNot,
    row: AnyStaffSession,
    idle: Annotated[
        bool, Query(description="The browser saw no activity (else: locked by hand).")
    ] = False,
) -> Response:
    await lock.lock(session, row=row, actor=actor_of(request), reason="idle" if idle else "by hand")
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/auth/unlock",
    operation_id="backofficeUnlock",
    response_model=MeOut,
    responses={**AUTHENTICATED, **errors(_401="invalid-token | WRONG_CREDENTIAL"), **VALIDATION},
    summary="Unlock the session of this token with the staff member's password (no TOTP while "
    "the session lives); the last of five wrong passwords ends the session",
)
async def unlock_session(
    body: UnlockIn,
    request: Request,
    session: SessionDep,
    staff: OwnLockedOrNot,
    row: AnyStaffSession,
) -> MeOut:
    await lock.unlock(
        session,
        row=row,
        staff=staff,
        password=body.password,
        actor=actor_of(request),
        idle=idle_timeout(request),
    )
    return MeOut.of_me(staff, idle_lock_minutes=_idle_minutes(request))


@router.get(
    "/me",
    operation_id="backofficeMe",
    response_model=MeOut,
    responses=AUTHENTICATED,
    summary="The staff member behind the token, with the permissions of their role",
)
async def me(request: Request, staff: OwnAccount) -> MeOut:
    return MeOut.of_me(staff, idle_lock_minutes=_idle_minutes(request))
