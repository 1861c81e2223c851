"""``/api/backoffice/sessions``: a staff member's own live sessions, and ending one of them."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response, status

from pao.backoffice.audit import service as audit
from pao.backoffice.deps import CurrentStaffSession, actor_of, idle_timeout, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.sessions import service as sessions
from pao.backoffice.sessions.schemas import SessionOut
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.kit.clock import utcnow

router = backoffice_router()

OwnAccount = Annotated[Staff, Depends(require(Permission.OWN_ACCOUNT))]


@router.get(
    "/sessions",
    operation_id="backofficeSessions",
    response_model=list[SessionOut],
    responses=AUTHENTICATED,
    summary="The staff member's own live sessions (locked ones too), newest first",
)
async def own_sessions(
    request: Request, session: SessionDep, staff: OwnAccount, row: CurrentStaffSession
) -> list[SessionOut]:
    rows = await sessions.own_sessions(session, staff=staff)
    idle, now = idle_timeout(request), utcnow()
    return [
        SessionOut.of(r, current_id=row.id, locked=sessions.is_locked(r, idle=idle, now=now))
        for r in rows
    ]


@router.delete(
    "/sessions/{session_id}",
    operation_id="backofficeEndSession",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses={**AUTHENTICATED, **errors(_404="STAFF_SESSION_NOT_FOUND"), **VALIDATION},
    summary="End one of the staff member's own sessions (this one too, if named)",
)
async def end_session(
    session_id: DbId, request: Request, session: SessionDep, staff: OwnAccount
) -> Response:
    ended = await sessions.end_own_session(session, staff=staff, session_id=session_id)
    await audit.record(
        session,
        actor=actor_of(request),
        action="session.end",
        object_type="staff_session",
        object_id=ended.id,
    )
    return Response(status_code=status.HTTP_204_NO_CONTENT)
