"""``/api/backoffice/members``: search and the member's page (``members.read``), its history
tabs, and the staff's notes. Each route reads through the domains' functions."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request, status

from pao.backoffice.audit import service as audit
from pao.backoffice.deps import actor_of, require
from pao.backoffice.members import detail
from pao.backoffice.members.schemas import (
    MemberChangeOut,
    MemberDetail,
    MemberLoginOut,
    MemberNoteIn,
    MemberNoteOut,
    MemberPageQuery,
    MemberQuery,
    MemberRowOut,
    MemberSlipOut,
    MemberStatementOut,
    MemberWithdrawalOut,
)
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.names import names_of
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.identity import logins as login_history
from pao.identity import notes
from pao.identity.admin import get_member
from pao.kit.clock import utcnow
from pao.kit.pagination import Page, PageRequest, Rows
from pao.payments.slips.service import list_slips
from pao.wallet.member_search import search_members
from pao.wallet.statements import list_statements
from pao.wallet.withdrawals import member_withdrawal_page

router = backoffice_router()

Reader = Annotated[Staff, Depends(require(Permission.MEMBERS_READ))]
NoteWriter = Annotated[Staff, Depends(require(Permission.MEMBERS_NOTE))]
NOT_FOUND = errors(_404="NO_USER")
READ = {**AUTHENTICATED, **NOT_FOUND, **VALIDATION}
Tab = Annotated[MemberPageQuery, Query()]


@router.get(
    "/members",
    operation_id="backofficeMembers",
    response_model=Page[MemberRowOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Members matching q (id, phone, name or bank account number) and status, one page",
)
async def search(
    query: Annotated[MemberQuery, Query()], session: SessionDep, staff: Reader
) -> Page[MemberRowOut]:
    rows, total = await search_members(
        session,
        q=query.q,
        status=query.status,
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
        sort=query.sort,
    )
    return Page[MemberRowOut].of(rows, MemberRowOut.of, total=total, request=query)


@router.get(
    "/members/{member_id}",
    operation_id="backofficeMember",
    response_model=MemberDetail,
    responses=READ,
    summary="The member's page: profile, masked bank account, balance, active bonus, logins",
)
async def member(
    member_id: DbId, request: Request, session: SessionDep, staff: Reader
) -> MemberDetail:
    found = await get_member(session, member_id)
    return await detail.member_detail(request.app, session, found)


@router.get(
    "/members/{member_id}/statement",
    operation_id="backofficeMemberStatement",
    response_model=Rows[MemberStatementOut],
    responses=READ,
    summary="The member's statement lines, newest first, one page",
)
async def statement(
    member_id: DbId, page: Tab, session: SessionDep, staff: Reader
) -> Rows[MemberStatementOut]:
    await get_member(session, member_id)
    total, rows = await list_statements(
        session, member_id=member_id, page=PageRequest(page=page.page, limit=page.limit)
    )
    return Rows[MemberStatementOut].of(rows, MemberStatementOut.of, total=total)


@router.get(
    "/members/{member_id}/slips",
    operation_id="backofficeMemberSlips",
    response_model=Rows[MemberSlipOut],
    responses=READ,
    summary="The member's deposit slips (without the image), newest first, one page",
)
async def slips(
    member_id: DbId, page: Tab, session: SessionDep, staff: Reader
) -> Rows[MemberSlipOut]:
    await get_member(session, member_id)
    total, rows = await list_slips(
        session, member_id=member_id, page=PageRequest(page=page.page, limit=page.limit)
    )
    return Rows[MemberSlipOut].of(rows, MemberSlipOut.of, total=total)


@router.get(
    "/members/{member_id}/withdrawals",
    operation_id="backofficeMemberWithdrawals",
    response_model=Rows[MemberWithdrawalOut],
    responses=READ,
    summary="The member's withdrawals, newest first, one page",
)
async def withdrawals(
    member_id: DbId, page: Tab, session: SessionDep, staff: Reader
) -> Rows[MemberWithdrawalOut]:
    await get_member(session, member_id)
    total, rows = await member_withdrawal_page(
        session, member_id=member_id, offset=page.offset, limit=page.limit
    )
    names = await names_of(session, (w.decided_by for w in rows))
    return Rows[MemberWithdrawalOut].of(
        rows, lambda w: MemberWithdrawalOut.of(w, names), total=total
    )


@router.get(
    "/members/{member_id}/logins",
    operation_id="backofficeMemberLogins",
    response_model=Rows[MemberLoginOut],
    responses=READ,
    summary="The member's logins (when, IP, user agent, ended or not), newest first, one page",
)
async def logins(
    member_id: DbId, page: Tab, session: SessionDep, staff: Reader
) -> Rows[MemberLoginOut]:
    await get_member(session, member_id)
    total, rows = await login_history.list_logins(
        session, member_id=member_id, offset=page.offset, limit=page.limit
    )
    now = utcnow()
    return Rows[MemberLoginOut].of(rows, lambda r: MemberLoginOut.of(r, now=now), total=total)


@router.get(
    "/members/{member_id}/changes",
    operation_id="backofficeMemberChanges",
    response_model=Rows[MemberChangeOut],
    responses=READ,
    summary="The member's changes of name, bank account and password, newest first, one page",
)
async def changes(
    member_id: DbId, page: Tab, session: SessionDep, staff: Reader
) -> Rows[MemberChangeOut]:
    await get_member(session, member_id)
    total, rows = await login_history.list_changes(
        session, member_id=member_id, offset=page.offset, limit=page.limit
    )
    return Rows[MemberChangeOut].of(rows, MemberChangeOut.of, total=total)


@router.get(
    "/members/{member_id}/notes",
    operation_id="backofficeMemberNotes",
    response_model=Rows[MemberNoteOut],
    responses=READ,
    summary="Staff notes on the member, newest first, one page",
)
async def list_notes(
    member_id: DbId, page: Tab, session: SessionDep, staff: Reader
) -> Rows[MemberNoteOut]:
    await get_member(session, member_id)
    total, rows = await notes.list_notes(
        session, member_id=member_id, offset=page.offset, limit=page.limit
    )
    names = await names_of(session, (note.author for note in rows))
    return Rows[MemberNoteOut].of(rows, lambda note: MemberNoteOut.of(note, names), total=total)


@router.post(
    "/members/{member_id}/notes",
    operation_id="backofficeMemberNoteAdd",
    status_code=status.HTTP_201_CREATED,
    response_model=MemberNoteOut,
    responses={**READ, **errors(_422="KEY_MISSING")},
    summary="Add a note on the member (members.note: every role but the read-only viewer; "
    "a note changes nothing of the account, and it is audited)",
)
async def add_note(
    member_id: DbId, body: MemberNoteIn, request: Request, session: SessionDep, staff: NoteWriter
) -> MemberNoteOut:
    await get_member(session, member_id)
    note = await notes.add_note(
        session, member_id=member_id, author_id=staff.id, author=staff.login, body=body.body
    )
    await audit.record(
        session,
        actor=actor_of(request),
        action="member.note",
        object_type="member",
        object_id=member_id,
        after={"noteId": note.id},
        detail=note.body,
    )
    return MemberNoteOut.of(note, {staff.login: staff.display_name})
