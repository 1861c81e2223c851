"""``pao ops member show PHONE``: a member's profile, balance, history and open withdrawals."""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.kit.pagination import PageRequest
from pao.ops.base import OpsError, format_money, run
from pao.ops.withdrawals import OPEN, describe_withdrawal
from pao.wallet.exceptions import MemberNotFound
from pao.wallet.models import Withdrawal
from pao.wallet.service import find_member_by_phone, invite_summary, wallet_balance
from pao.wallet.statements import list_statements
from pao.wallet.withdrawals import list_withdrawals

app = typer.Typer(help="Members.", no_args_is_help=True)

RECENT_STATEMENTS = 10


async def show_lines(session: AsyncSession, *, phone: str) -> list[str]:
    try:
        member = await find_member_by_phone(session, phone=phone)
    except MemberNotFound:
        raise OpsError(f"no member with phone {phone}") from None
    currency = Currency(member.currency)
    balance = await wallet_balance(session, member_id=member.id, currency=currency)
    invites = await invite_summary(session, member_id=member.id)
    total, statements = await list_statements(
        session, member_id=member.id, page=PageRequest(page=1, limit=RECENT_STATEMENTS)
    )
    open_withdrawals: list[Withdrawal] = []
    for status in OPEN:
        open_withdrawals += await list_withdrawals(session, status=status, member_id=member.id)
    lines = [
        f"member   {member.id} ({member.invite_code})  {member.name}  phone {member.phone}  "
        f"{member.status}  since {member.created_at:%Y-%m-%d %H:%M}Z",
        f"bank     {member.bank_code} {member.bank_account_no} {member.bank_account_name}",
        f"balance  {format_money(balance, currency)}  coins {member.coin}",
        f"invites  {invites.success} member(s) invited"
        + (f"; invited by member {member.inviter_id}" if member.inviter_id else ""),
        f"statements ({min(total, RECENT_STATEMENTS)} latest of {total}):",
    ]
    lines += [
        f"  {st.created_at:%Y-%m-%d %H:%M:%S}Z  {st.statement_type:<12} {st.status:<7}  "
        f"{st.from_label} → {st.to_label}  {format_money(st.amount, st.currency)}"
        for st in statements
    ] or ["  none"]
    lines.append("open withdrawals:")
    lines += [f"  {describe_withdrawal(w)}" for w in open_withdrawals] or ["  none"]
    return lines


@app.command("show")
def show_command(
    phone: Annotated[str, typer.Argument(help="The member's phone number.")],
) -> None:
    """Profile, wallet balance, latest statement lines and open withdrawals."""
    for line in run(lambda s: show_lines(s, phone=phone)):
        typer.echo(line)
