"""``pao ops withdrawals list|approve|reject``: the operator's withdrawal queue.

``approve`` means "I paid it by hand": the hold is posted to payout clearing and the member's
statement line becomes SUCCESS. ``reject`` voids the hold (money back) with a reason.
"""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.ops.base import OpsError, format_money, operator, run
from pao.wallet.exceptions import WithdrawalNotFound, WithdrawalStatusConflict
from pao.wallet.models import Withdrawal, WithdrawalStatus
from pao.wallet.withdrawals import approve_withdrawal as approve_service
from pao.wallet.withdrawals import list_withdrawals, reject_withdrawal

app = typer.Typer(help="The withdrawal queue.", no_args_is_help=True)

OPEN = (WithdrawalStatus.PENDING, WithdrawalStatus.APPROVED)


def describe_withdrawal(withdrawal: Withdrawal, phone: str | None = None) -> str:
    who = f"member {withdrawal.member_id}" + (f" ({phone})" if phone else "")
    line = (
        f"#{withdrawal.id}  {withdrawal.status:<8}  "
        f"{format_money(withdrawal.amount, withdrawal.currency)}  {who}  "
        f"to {withdrawal.bank_code} {withdrawal.bank_account_no} {withdrawal.bank_account_name}  "
        f"requested {withdrawal.created_at:%Y-%m-%d %H:%M:%S}Z"
    )
    if withdrawal.decided_by:
        line += f"  decided by {withdrawal.decided_by}"
    if withdrawal.reason:
        line += f"  reason: {withdrawal.reason}"
    return line


async def list_lines(
    session: AsyncSession, *, status: WithdrawalStatus | None, limit: int
) -> list[str]:
    # A queue is worked oldest first; outside the queue the newest matter most.
    rows = await list_withdrawals(
        session, status=status, limit=limit, newest_first=status not in OPEN
    )
    if not rows:
        return [f"no {status} withdrawals" if status else "no withdrawals"]
    result = await session.execute(
        select(Member.id, Member.phone).where(Member.id.in_({w.member_id for w in rows}))
    )
    phones = {member_id: phone for member_id, phone in result}
    return [describe_withdrawal(w, phones.get(w.member_id)) for w in rows]


def _refusal(exc: WithdrawalNotFound | WithdrawalStatusConflict, withdrawal_id: int) -> OpsError:
    if isinstance(exc, WithdrawalNotFound):
        return OpsError(f"no withdrawal #{withdrawal_id}")
    return OpsError(
        f"withdrawal #{withdrawal_id} is already {exc.extra['status']}; "
        f"it cannot become {exc.extra['wanted']} (nothing changed)"
    )


async def approve(
    session: AsyncSession, *, withdrawal_id: int, note: str | None, actor: str
) -> str:
    try:
        withdrawal = await approve_service(
            session, withdrawal_id=withdrawal_id, actor=actor, note=note
        )
    except (WithdrawalNotFound, WithdrawalStatusConflict) as exc:
        raise _refusal(exc, withdrawal_id) from None
    return f"paid: {describe_withdrawal(withdrawal)}"


async def reject(session: AsyncSession, *, withdrawal_id: int, reason: str, actor: str) -> str:
    if not reason.strip():
        raise OpsError("a reason is required (--reason)")
    try:
        withdrawal = await reject_withdrawal(
            session, withdrawal_id=withdrawal_id, actor=actor, reason=reason
        )
    except (WithdrawalNotFound, WithdrawalStatusConflict) as exc:
        raise _refusal(exc, withdrawal_id) from None
    return f"rejected, money returned to the wallet: {describe_withdrawal(withdrawal)}"


@app.command("list")
def list_command(
    status: Annotated[
        WithdrawalStatus | None,
        typer.Option("--status", case_sensitive=False, help="Only this status."),
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 100,
) -> None:
    """List withdrawals (a status's queue oldest first, otherwise newest first)."""
    for line in run(lambda s: list_lines(s, status=status, limit=limit)):
        typer.echo(line)


@app.command("approve")
def approve_command(
    withdrawal_id: Annotated[int, typer.Argument(metavar="ID")],
    note: Annotated[str | None, typer.Option("--note", help="e.g. the bank reference.")] = None,
) -> None:
    """Mark a PENDING withdrawal as paid by hand (PENDING → APPROVED → PAID)."""
    actor = operator()
    typer.echo(run(lambda s: approve(s, withdrawal_id=withdrawal_id, note=note, actor=actor)))


@app.command("reject")
def reject_command(
    withdrawal_id: Annotated[int, typer.Argument(metavar="ID")],
    reason: Annotated[str, typer.Option("--reason", help="Why (required).")],
) -> None:
    """Reject a PENDING withdrawal: the held money goes back to the wallet."""
    actor = operator()
    typer.echo(run(lambda s: reject(s, withdrawal_id=withdrawal_id, reason=reason, actor=actor)))
