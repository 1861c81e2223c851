"""``pao ops member``: ``show PHONE`` (profile, balance, history, recent changes of name, bank
account and password, open withdrawals) and the operator's actions ``suspend``,
``reactivate``, ``logout`` and ``reset-password``, through the same functions as the back
office's member page (:mod:`pao.backoffice.members.service`, audited as ``ops:<user>``)."""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit.service import Actor
from pao.backoffice.members import service as member_actions
from pao.identity.changes import recent_changes
from pao.identity.models import MemberChange, MemberStatus
from pao.kit.money import Currency
from pao.kit.pagination import PageRequest
from pao.ops.base import OpsError, format_money, operator, run
from pao.ops.withdrawals import OPEN, describe_withdrawal, hold_marks
from pao.promotions.invite import summary as invite_summary
from pao.wallet.exceptions import MemberNotFound
from pao.wallet.models import Withdrawal
from pao.wallet.service import find_member_by_phone, wallet_balance
from pao.wallet.statements import list_statements
from pao.wallet.withdrawals import list_withdrawals

app = typer.Typer(help="Members.", no_args_is_help=True)

RECENT_STATEMENTS = 10
RECENT_CHANGES = 10


def describe_change(change: MemberChange) -> str:
    what = (
        "password changed"
        if change.old_value is None and change.new_value is None
        else f"{change.old_value or '-'} → {change.new_value or '-'}"
    )
    return (
        f"{change.created_at:%Y-%m-%d %H:%M:%S}Z  {change.kind:<17} {what}  "
        f"from {change.ip or '?'} ({change.user_agent or 'no user agent'})"
    )


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
    changes = await recent_changes(session, member_id=member.id, limit=RECENT_CHANGES)
    open_withdrawals: list[Withdrawal] = []
    for status in OPEN:
        open_withdrawals += await list_withdrawals(session, status=status, member_id=member.id)
    marks = await hold_marks(session, open_withdrawals)
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
    lines.append(f"changes of name, bank account, password ({len(changes)} latest):")
    lines += [f"  {describe_change(change)}" for change in changes] or ["  none"]
    lines.append("open withdrawals:")
    lines += [f"  {describe_withdrawal(w, mark=marks.get(w.id))}" for w in open_withdrawals] or [
        "  none"
    ]
    return lines


@app.command("show")
def show_command(
    phone: Annotated[str, typer.Argument(help="The member's phone number.")],
) -> None:
    """Profile, wallet balance, latest statement lines, recent changes of name, bank account
    and password, and open withdrawals."""
    for line in run(lambda s: show_lines(s, phone=phone)):
        typer.echo(line)


PhoneArgument = Annotated[str, typer.Argument(help="The member's phone number.")]
ReasonOption = Annotated[str, typer.Option("--reason", help="Why (kept in the audit log).")]


async def _member_id(session: AsyncSession, phone: str) -> int:
    try:
        return (await find_member_by_phone(session, phone=phone)).id
    except MemberNotFound:
        raise OpsError(f"no member with phone {phone}") from None


async def status_line(
    session: AsyncSession, *, phone: str, status: MemberStatus, reason: str
) -> str:
    member_id = await _member_id(session, phone)
    member = await member_actions.set_status(
        session, actor=Actor.operator(operator()), member_id=member_id, status=status, reason=reason
    )
    return f"member {member.id} ({phone}) is now {member.status}"


async def logout_line(session: AsyncSession, *, phone: str, reason: str) -> str:
    member_id = await _member_id(session, phone)
    ended = await member_actions.force_logout(
        session, actor=Actor.operator(operator()), member_id=member_id, reason=reason
    )
    return f"member {member_id} ({phone}): {ended} session(s) ended"


async def reset_password_line(session: AsyncSession, *, phone: str, reason: str) -> str:
    member_id = await _member_id(session, phone)
    reset = await member_actions.reset_password(
        session, actor=Actor.operator(operator()), member_id=member_id, reason=reason
    )
    return (
        f"member {member_id} ({phone}): temporary password {reset.temporary_password} "
        f"(shown once; {reset.sessions_ended} session(s) ended)"
    )


@app.command("suspend")
def suspend_command(phone: PhoneArgument, reason: ReasonOption) -> None:
    """Suspend a member: login refused, every session ended."""
    typer.echo(
        run(lambda s: status_line(s, phone=phone, status=MemberStatus.INACTIVE, reason=reason))
    )


@app.command("reactivate")
def reactivate_command(phone: PhoneArgument, reason: ReasonOption) -> None:
    """Reactivate a suspended member."""
    typer.echo(
        run(lambda s: status_line(s, phone=phone, status=MemberStatus.ACTIVE, reason=reason))
    )


@app.command("logout")
def logout_command(phone: PhoneArgument, reason: ReasonOption) -> None:
    """End every session of a member."""
    typer.echo(run(lambda s: logout_line(s, phone=phone, reason=reason)))


@app.command("reset-password")
def reset_password_command(phone: PhoneArgument, reason: ReasonOption) -> None:
    """Give a member a one-time temporary password (printed once) and end their sessions."""
    typer.echo(run(lambda s: reset_password_line(s, phone=phone, reason=reason)))
