"""A member's sensitive data (``members.sensitive.read``): the full bank account number, and the
game accounts with their credentials and live balances. Each read is audited before the
answer leaves (:func:`pao.backoffice.audit.service.record_sensitive_read`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from pao.backoffice.audit import service as audit
from pao.backoffice.deps import actor_of, require
from pao.backoffice.members.schemas import MemberBankAccountOut, MemberGameAccountOut
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.games.admin import member_game_accounts
from pao.identity.admin import get_member

router = backoffice_router()

SensitiveReader = Annotated[Staff, Depends(require(Permission.MEMBERS_SENSITIVE_READ))]
READ = {**AUTHENTICATED, **errors(_404="NO_USER"), **VALIDATION}


@router.get(
    "/members/{member_id}/bank-account",
    operation_id="backofficeMemberBankAccount",
    response_model=MemberBankAccountOut,
    responses=READ,
    summary="The member's full bank account number (audited as a sensitive read)",
)
async def bank_account(
    member_id: DbId, request: Request, session: SessionDep, staff: SensitiveReader
) -> MemberBankAccountOut:
    member = await get_member(session, member_id)
    await audit.record_sensitive_read(
        session,
        actor=actor_of(request),
        object_type="member",
        object_id=member.id,
        what="bank_account_no",
    )
    return MemberBankAccountOut(
        bank_code=member.bank_code,
        account_name=member.bank_account_name,
        account_no=member.bank_account_no,
    )


@router.get(
    "/members/{member_id}/game-accounts",
    operation_id="backofficeMemberGameAccounts",
    response_model=list[MemberGameAccountOut],
    responses=READ,
    summary="The member's game accounts with credentials and live balances (a provider that "
    "is slow shows its last known amount, stale); audited as a sensitive read",
)
async def game_accounts(
    member_id: DbId, request: Request, session: SessionDep, staff: SensitiveReader
) -> list[MemberGameAccountOut]:
    member = await get_member(session, member_id)
    await audit.record_sensitive_read(
        session,
        actor=actor_of(request),
        object_type="member",
        object_id=member.id,
        what="game_credentials",
    )
    # Commit the read's audit row before asking the providers: the refresh writes in its own
    # transactions, and on SQLite every open transaction holds the write lock.
    await session.commit()
    return [
        MemberGameAccountOut(
            game_code=a.game_code,
            game_name=a.game_name,
            username=a.username,
            password=a.password,
            balance=a.balance,
            stale=a.stale,
            balance_at=a.balance_at,
        )
        for a in await member_game_accounts(request.app, session, member_id=member.id)
    ]
