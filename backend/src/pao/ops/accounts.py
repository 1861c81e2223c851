"""``pao ops accounts list|add|edit|enable|disable``: the operator's receiving accounts (where
members deposit): bank accounts (slip or KBANK AUTO with a PromptPay id), gateways, TrueMoney.

The same functions as the back office's ``/api/backoffice/accounts`` (:mod:`pao.payments.
accounts`), and the same audit rows, recorded as ``ops:<OS user>``."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit import service as audit
from pao.backoffice.audit.service import Actor
from pao.kit.money import Currency
from pao.ops.base import operator, run
from pao.payments.accounts import (
    ReceivingAccount,
    ReceivingKind,
    ReceivingMode,
    add_account,
    all_accounts,
    edit_account,
    get_account,
    snapshot,
)

OBJECT = "receiving_account"

app = typer.Typer(help="Receiving accounts (deposit lookup).", no_args_is_help=True)


def describe_account(account: ReceivingAccount) -> str:
    extra = []
    if account.promptpay_id:
        extra.append(f"promptpay {account.promptpay_id}")
    if account.lao_receiver_id:
        extra.append(f"lao-receiver {account.lao_receiver_id}")
    return (
        f"{account.id:>4}  {account.kind:<9} {account.code:<9} {account.mode:<9} "
        f"{account.currency}  {'active' if account.active else 'disabled':<8}  "
        f"{account.account_no or '-'}  {account.account_name or '-'}"
        + (f"  ({', '.join(extra)})" if extra else "")
    )


async def list_lines(session: AsyncSession) -> list[str]:
    return [describe_account(a) for a in await all_accounts(session)] or ["no receiving accounts"]


@app.command("list")
def list_command() -> None:
    """List every receiving account, active or not."""
    for line in run(list_lines):
        typer.echo(line)


@app.command("add")
def add_command(
    kind: Annotated[ReceivingKind, typer.Argument(help="BANK, GATEWAY or TRUEMONEY.")],
    code: Annotated[str, typer.Argument(help="Bank code (SCB, KBANK, BCEL), WW, … TRUEMONEY.")],
    mode: Annotated[ReceivingMode, typer.Option(help="AUTO, MANUAL or GIFT_LINK.")] = (
        ReceivingMode.MANUAL
    ),
    name: Annotated[str, typer.Option(help="Account (or wallet) name shown to members.")] = "",
    number: Annotated[str, typer.Option(help="Account number, or the wallet's phone.")] = "",
    promptpay_id: Annotated[
        str | None, typer.Option(help="PromptPay id of an AUTO Thai bank account.")
    ] = None,
    lao_receiver_id: Annotated[
        str | None, typer.Option(help="Lao QR receiver id of an AUTO Lao account.")
    ] = None,
    currency: Annotated[Currency, typer.Option(help="THB or LAK.")] = Currency.THB,
) -> None:
    """Add an active receiving account."""

    async def work(session: AsyncSession) -> str:
        account = await add_account(
            session,
            kind=kind,
            code=code,
            mode=mode,
            account_name=name,
            account_no=number,
            promptpay_id=promptpay_id,
            lao_receiver_id=lao_receiver_id,
            currency=currency,
        )
        await audit.record(
            session,
            actor=Actor.operator(operator()),
            action="account.create",
            object_type=OBJECT,
            object_id=account.id,
            after=snapshot(account),
        )
        return "added " + describe_account(account)

    typer.echo(run(work))


async def change(
    session: AsyncSession, *, account_id: int, changes: dict[str, Any], actor: Actor
) -> ReceivingAccount:
    """Edit an account and audit it, as ``PATCH /api/backoffice/accounts/{id}`` does."""
    before = snapshot(await get_account(session, account_id=account_id))
    account = await edit_account(session, account_id=account_id, changes=changes)
    old, new = audit.changed(before, snapshot(account))
    await audit.record(
        session,
        actor=actor,
        action="account.update",
        object_type=OBJECT,
        object_id=account.id,
        before=old,
        after=new,
    )
    return account


@app.command("edit")
def edit_command(
    account_id: Annotated[int, typer.Argument(help="The id shown by `list`.")],
    code: Annotated[str | None, typer.Option(help="Bank or gateway code.")] = None,
    mode: Annotated[ReceivingMode | None, typer.Option(help="AUTO, MANUAL or GIFT_LINK.")] = None,
    name: Annotated[str | None, typer.Option(help="Account (or wallet) name.")] = None,
    number: Annotated[str | None, typer.Option(help="Account number, or the phone.")] = None,
    promptpay_id: Annotated[str | None, typer.Option(help="PromptPay id ('' clears it).")] = None,
    lao_receiver_id: Annotated[
        str | None, typer.Option(help="Lao QR receiver id ('' clears it).")
    ] = None,
) -> None:
    """Change some fields of an account (the result is checked as a whole)."""
    given = {
        "code": code,
        "mode": mode,
        "account_name": name,
        "account_no": number,
        "promptpay_id": promptpay_id,
        "lao_receiver_id": lao_receiver_id,
    }
    changes = {k: v for k, v in given.items() if v is not None}
    actor = Actor.operator(operator())

    async def work(session: AsyncSession) -> str:
        account = await change(session, account_id=account_id, changes=changes, actor=actor)
        return "edited " + describe_account(account)

    typer.echo(run(work))


@app.command("enable")
def enable_command(
    account_id: Annotated[int, typer.Argument(help="The id shown by `list`.")],
) -> None:
    """Offer a disabled account to members again."""
    actor = Actor.operator(operator())

    async def work(session: AsyncSession) -> str:
        account = await change(
            session, account_id=account_id, changes={"active": True}, actor=actor
        )
        return "enabled " + describe_account(account)

    typer.echo(run(work))


@app.command("disable")
def disable_command(
    account_id: Annotated[int, typer.Argument(help="The id shown by `list`.")],
) -> None:
    """Stop offering an account (kept for history; late payments still credit)."""

    actor = Actor.operator(operator())

    async def work(session: AsyncSession) -> str:
        account = await change(
            session, account_id=account_id, changes={"active": False}, actor=actor
        )
        return "disabled " + describe_account(account)

    typer.echo(run(work))
