"""``pao ops accounts list|add|disable``: the operator's receiving accounts (where members
deposit): bank accounts (slip or KBANK AUTO with a PromptPay id), gateways, TrueMoney."""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.ops.base import run
from pao.payments.accounts import (
    ReceivingAccount,
    ReceivingKind,
    ReceivingMode,
    add_account,
    all_accounts,
    disable_account,
)

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
        return "added " + describe_account(account)

    typer.echo(run(work))


@app.command("disable")
def disable_command(
    account_id: Annotated[int, typer.Argument(help="The id shown by `list`.")],
) -> None:
    """Stop offering an account (kept for history; late payments still credit)."""

    async def work(session: AsyncSession) -> str:
        return "disabled " + describe_account(await disable_account(session, account_id=account_id))

    typer.echo(run(work))
