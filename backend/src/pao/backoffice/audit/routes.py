"""``GET /api/backoffice/audit``: the audit log, filtered, sorted and paged on the server."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.actions import ACTIONS, OBJECT_TYPES, is_sign_in
from pao.backoffice.audit.schemas import AuditActionsOut, AuditEntryOut, AuditQuery
from pao.backoffice.deps import require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION
from pao.core.uow import SessionDep
from pao.kit.pagination import Page

router = backoffice_router()


@router.get(
    "/audit/actions",
    operation_id="backofficeAuditActions",
    response_model=AuditActionsOut,
    responses=AUTHENTICATED,
    summary="The actions the audit log records and the object types they act on (the filters' "
    "lists)",
)
async def audit_actions(
    staff: Annotated[Staff, Depends(require(Permission.AUDIT_READ))],
) -> AuditActionsOut:
    return AuditActionsOut(
        items=list(ACTIONS),
        sign_ins=[a for a in ACTIONS if is_sign_in(a)],
        object_types=list(OBJECT_TYPES),
    )


@router.get(
    "/audit",
    operation_id="backofficeAudit",
    response_model=Page[AuditEntryOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Audit entries matching the filters (staff, action, object, [from, to)), one page",
)
async def audit_log(
    query: Annotated[AuditQuery, Query()],
    session: SessionDep,
    staff: Annotated[Staff, Depends(require(Permission.AUDIT_READ))],
) -> Page[AuditEntryOut]:
    entries, total = await audit.search(
        session,
        where=audit.AuditFilter(
            staff_id=query.staff_id,
            action=query.action,
            object_type=query.object_type,
            object_id=query.object_id,
            since=query.since,
            until=query.until,
            hide_sign_ins=query.hide_sign_ins,
        ),
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
        sort=query.sort,
    )
    return Page[AuditEntryOut].of(entries, AuditEntryOut.of, total=total, request=query)
