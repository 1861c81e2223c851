"""``/api/backoffice/staff``: the owner manages staff (``staff.manage``). Each route calls the
service function ``pao ops staff`` calls too (:mod:`pao.backoffice.staff.service`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response, status

from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff import service
from pao.backoffice.staff.roles import Permission
from pao.backoffice.staff.schemas import (
    EnrolmentOut,
    PasswordResetIn,
    StaffCreatedOut,
    StaffCreateIn,
    StaffOut,
    StaffUpdateIn,
)
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep

router = backoffice_router()

StaffManager = Annotated[Staff, Depends(require(Permission.STAFF_MANAGE))]
NOT_FOUND = errors(_404="STAFF_NOT_FOUND")


@router.get(
    "/staff",
    operation_id="backofficeStaffList",
    response_model=list[StaffOut],
    responses=AUTHENTICATED,
    summary="Every staff member, active or not, in the order they were added",
)
async def list_staff(session: SessionDep, staff: StaffManager) -> list[StaffOut]:
    return [StaffOut.of(s) for s in await service.list_staff(session)]


@router.post(
    "/staff",
    operation_id="backofficeStaffCreate",
    status_code=status.HTTP_201_CREATED,
    response_model=StaffCreatedOut,
    responses={
        **AUTHENTICATED,
        **errors(_400="KEY_INVALID", _409="STAFF_LOGIN_TAKEN"),
        **VALIDATION,
    },
    summary="Add a staff member; answers their TOTP enrolment (shown this once)",
)
async def create_staff(
    body: StaffCreateIn, request: Request, session: SessionDep, staff: StaffManager
) -> StaffCreatedOut:
    created, enrolment = await service.create_staff(
        session,
        actor=actor_of(request),
        login=body.login,
        password=body.password,
        role=body.role,
        display_name=body.display_name,
    )
    return StaffCreatedOut(staff=StaffOut.of(created), enrolment=EnrolmentOut.of(enrolment))


@router.patch(
    "/staff/{staff_id}",
    operation_id="backofficeStaffUpdate",
    response_model=StaffOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(_403="STAFF_FORBIDDEN | STAFF_SELF_CHANGE", _409="STAFF_LAST_OWNER"),
        **VALIDATION,
    },
    summary="Change a staff member's role or name, disable (ends their sessions) or enable",
)
async def update_staff(
    staff_id: DbId, body: StaffUpdateIn, request: Request, session: SessionDep, staff: StaffManager
) -> StaffOut:
    updated = await service.update_staff(
        session,
        actor=actor_of(request),
        staff_id=staff_id,
        role=body.role,
        display_name=body.display_name,
        disabled=body.disabled,
    )
    return StaffOut.of(updated)


@router.post(
    "/staff/{staff_id}/reset-2fa",
    operation_id="backofficeStaffReset2fa",
    response_model=StaffOut,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(_403="STAFF_FORBIDDEN | STAFF_SELF_CHANGE"),
        **VALIDATION,
    },
    summary="Forget a staff member's authenticator and end their sessions; they enrol anew at "
    "their next login",
)
async def reset_two_factor(
    staff_id: DbId, request: Request, session: SessionDep, staff: StaffManager
) -> StaffOut:
    target = await service.reset_two_factor(session, actor=actor_of(request), staff_id=staff_id)
    return StaffOut.of(target)


@router.post(
    "/staff/{staff_id}/reset-password",
    operation_id="backofficeStaffResetPassword",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses={
        **AUTHENTICATED,
        **NOT_FOUND,
        **errors(_400="KEY_INVALID", _403="STAFF_FORBIDDEN | STAFF_SELF_CHANGE"),
        **VALIDATION,
    },
    summary="Set a new password for a staff member and end their sessions",
)
async def reset_password(
    staff_id: DbId,
    body: PasswordResetIn,
    request: Request,
    session: SessionDep,
    staff: StaffManager,
) -> Response:
    await service.reset_password(
        session, actor=actor_of(request), staff_id=staff_id, password=body.password
    )
    return Response(status_code=status.HTTP_204_NO_CONTENT)
