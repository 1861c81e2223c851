"""``/api/backoffice/accounts``: the receiving accounts of the deposit lookup (bank, gateway,
TrueMoney). The routes call :mod:`pao.payments.accounts`, the functions ``pao ops accounts``
calls too, and audit every change with the account before and after."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, status

from pao.backoffice.accounts.schemas import (
    AccountCreateIn,
    AccountListOut,
    AccountOut,
    AccountUpdateIn,
)
from pao.backoffice.audit import service as audit
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.payments import accounts

router = backoffice_router()

Reader = Annotated[Staff, Depends(require(Permission.ACCOUNTS_READ))]
Manager = Annotated[Staff, Depends(require(Permission.ACCOUNTS_MANAGE))]
OBJECT = "receiving_account"


@router.get(
    "/accounts",
    operation_id="backofficeAccounts",
    response_model=AccountListOut,
    responses=AUTHENTICATED,
    summary="Every receiving account, active or not, in the order they were added",
)
async def list_accounts(session: SessionDep, staff: Reader) -> AccountListOut:
    rows = await accounts.all_accounts(session)
    return AccountListOut(items=[AccountOut.of(a) for a in rows], total=len(rows))


@router.post(
    "/accounts",
    operation_id="backofficeAccountCreate",
    status_code=status.HTTP_201_CREATED,
    response_model=AccountOut,
    responses={**AUTHENTICATED, **errors(_400="RECEIVING_ACCOUNT_INVALID"), **VALIDATION},
    summary="Add an active receiving account",
)
async def create_account(
    body: AccountCreateIn, request: Request, session: SessionDep, staff: Manager
) -> AccountOut:
    account = await accounts.add_account(
        session,
        kind=body.kind,
        code=body.code,
        mode=body.mode,
        account_name=body.account_name,
        account_no=body.account_no,
        promptpay_id=body.promptpay_id,
        lao_receiver_id=body.lao_receiver_id,
        currency=body.currency,
    )
    await audit.record(
        session,
        actor=actor_of(request),
        action="account.create",
        object_type=OBJECT,
        object_id=account.id,
        after=accounts.snapshot(account),
    )
    return AccountOut.of(account)


@router.patch(
    "/accounts/{account_id}",
    operation_id="backofficeAccountUpdate",
    response_model=AccountOut,
    responses={
        **AUTHENTICATED,
        **errors(_400="RECEIVING_ACCOUNT_INVALID", _404="RECEIVING_ACCOUNT_NOT_FOUND"),
        **VALIDATION,
    },
    summary="Edit a receiving account's fields, or enable / disable it",
)
async def update_account(
    account_id: DbId,
    body: AccountUpdateIn,
    request: Request,
    session: SessionDep,
    staff: Manager,
) -> AccountOut:
    before = accounts.snapshot(await accounts.get_account(session, account_id=account_id))
    account = await accounts.edit_account(
        session, account_id=account_id, changes=body.model_dump(exclude_unset=True)
    )
    old, new = audit.changed(before, accounts.snapshot(account))
    await audit.record(
        session,
        actor=actor_of(request),
        action="account.update",
        object_type=OBJECT,
        object_id=account.id,
        before=old,
        after=new,
    )
    return AccountOut.of(account)
