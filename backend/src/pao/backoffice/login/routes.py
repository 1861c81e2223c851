"""``/api/backoffice/auth/*`` and ``/me``: logging in (password, then TOTP), out, and the staff
member behind the token. Their own sessions are :mod:`pao.backoffice.sessions.routes`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response, status

from pao.backoffice.deps import (
    PUBLIC,
    CurrentStaffSession,
    actor_of,
    require,
)
from pao.backoffice.login import service as auth
from pao.backoffice.login.schemas import LoginIn, LoginStepOut, MeOut, SessionStartedOut, TotpIn
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.backoffice.staff.schemas import EnrolmentOut
from pao.core.client import client_ip
from pao.core.login_throttle import LoginThrottle
from pao.core.openapi import VALIDATION, errors
from pao.core.uow import SessionDep

router = backoffice_router()

OwnAccount = Annotated[Staff, Depends(require(Permission.OWN_ACCOUNT))]


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
    return SessionStartedOut(token=token, expires_at=row.expires_at, staff=MeOut.of_me(staff))


@router.post(
    "/auth/logout",
    operation_id="backofficeLogout",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=AUTHENTICATED,
    summary="End the session of this token",
)
async def logout(
    request: Request, session: SessionDep, staff: OwnAccount, row: CurrentStaffSession
) -> Response:
    await auth.log_out(session, actor=actor_of(request), row=row)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/me",
    operation_id="backofficeMe",
    response_model=MeOut,
    responses=AUTHENTICATED,
    summary="The staff member behind the token, with the permissions of their role",
)
async def me(staff: OwnAccount) -> MeOut:
    return MeOut.of_me(staff)
