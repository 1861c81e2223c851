"""``pao ops withdrawals list|approve|reject``: the operator's withdrawal queue.

``approve`` sends the payout through the bank's payout adapter (pao.payments.payouts): the
withdrawal becomes APPROVED, then PAID when the bank confirms (now, or later through the
reconciler job when the answer is unknown), or FAILED with the money back if the bank refuses.
``approve --manual`` means "I paid it by hand": the hold is posted to payout clearing at once
and the member's statement line becomes SUCCESS. ``reject`` voids the hold (money back) with
a reason.

These are the functions the back office's withdrawal queue calls too. There a cashier must
claim a withdrawal before deciding it (:mod:`pao.wallet.claims`); an operator at the shell
passes no claimant and so bypasses claims: ``pao ops`` is the break-glass path, and a
decision here is still refused once the withdrawal is no longer PENDING, whoever claims it.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

import httpx
import typer
from sqlalchemy import ColumnElement, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.db import create_engine, create_sessionmaker
from pao.core.settings import get_settings
from pao.identity.models import Member
from pao.ops.base import OpsError, format_money, operator, run
from pao.payments.payouts.adapter import PayoutBank
from pao.payments.payouts.models import PayoutStatus
from pao.payments.payouts.service import (
    PayoutContext,
    held_for_bank_change,
    held_for_links,
    process_payout,
    queue_payout,
)
from pao.site.settings import load_site_settings
from pao.wallet.exceptions import WithdrawalNotFound, WithdrawalStatusConflict
from pao.wallet.models import Withdrawal, WithdrawalStatus
from pao.wallet.withdrawals import approve_withdrawal as approve_service
from pao.wallet.withdrawals import list_withdrawals, reject_withdrawal

app = typer.Typer(help="The withdrawal queue.", no_args_is_help=True)

OPEN = (WithdrawalStatus.PENDING, WithdrawalStatus.APPROVED)


BANK_CHANGED = "!! bank account changed within {hours} h of the request: check with the member"
LINKED = "!! linked to another member: see why in the back office's withdrawal detail"


async def hold_marks(session: AsyncSession, withdrawals: list[Withdrawal]) -> dict[int, str]:
    """Withdrawal id → why the auto-approve job leaves it to a cashier: the member's bank account
    changed within the hold window (``bankChangeHoldHours``), or another member is linked to
    theirs by a signal the operator holds for (the hold* settings). The job's own clauses
    (pao.payments.payouts.service), so that the command and the job never disagree."""
    if not withdrawals:
        return {}
    site = await load_site_settings(session)
    dialect = session.get_bind().dialect.name
    ids = [w.id for w in withdrawals]

    async def matching(clause: ColumnElement[bool]) -> set[int]:
        found = await session.scalars(select(Withdrawal.id).where(Withdrawal.id.in_(ids), clause))
        return set(found)

    hours = site.bank_change_hold_hours
    changed = await matching(held_for_bank_change(hold_hours=hours, dialect=dialect))
    linked = await matching(held_for_links(site, dialect=dialect))
    marks: dict[int, str] = {}
    for withdrawal_id in ids:
        why = [BANK_CHANGED.format(hours=hours)] if withdrawal_id in changed else []
        why += [LINKED] if withdrawal_id in linked else []
        if why:
            marks[withdrawal_id] = "  ".join(why)
    return marks


def describe_withdrawal(
    withdrawal: Withdrawal, phone: str | None = None, mark: str | None = None
) -> str:
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
    if mark:
        line += f"  {mark}"
    return line


async def list_lines(
    session: AsyncSession, *, status: WithdrawalStatus | None, limit: int
) -> list[str]:
    """One line per withdrawal; those the auto-approve job holds are marked why
    (:func:`hold_marks`)."""
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
    marks = await hold_marks(session, rows)
    return [describe_withdrawal(w, phones.get(w.member_id), marks.get(w.id)) for w in rows]


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


async def approve_for_payout(
    session: AsyncSession, *, withdrawal_id: int, note: str | None, actor: str
) -> tuple[int, str]:
    """Step one of a bank payout: APPROVED + a payout row (committed by ``run``)."""
    try:
        payout = await queue_payout(session, withdrawal_id=withdrawal_id, actor=actor, note=note)
    except (WithdrawalNotFound, WithdrawalStatusConflict) as exc:
        raise _refusal(exc, withdrawal_id) from None
    return payout.id, f"approved, sending payout #{payout.id} to the bank"


async def send_payout(payout_id: int) -> str:
    """Step two, after the approval committed: call the bank and record its answer."""
    settings = get_settings()
    engine = create_engine(settings)
    try:
        async with httpx.AsyncClient() as http:
            ctx = PayoutContext(
                sessionmaker=create_sessionmaker(engine), bank=PayoutBank(http, settings)
            )
            payout = await process_payout(ctx, payout_id=payout_id)
    finally:
        await engine.dispose()
    if payout is None or payout.status == PayoutStatus.PENDING:
        return (
            f"payout #{payout_id}: outcome not known yet; it stays pending and the "
            "reconciler job settles it (nothing is paid twice)"
        )
    if payout.status == PayoutStatus.SUCCEEDED:
        return f"payout #{payout_id}: paid by the bank (ref {payout.bank_reference or '-'})"
    return f"payout #{payout_id}: refused by the bank ({payout.last_error}); money returned"


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
    manual: Annotated[
        bool, typer.Option("--manual", help="The money was paid by hand: mark it PAID now.")
    ] = False,
) -> None:
    """Approve a PENDING withdrawal and pay it through the bank (APPROVED → PAID | FAILED);
    with --manual, mark it as paid by hand (PENDING → APPROVED → PAID)."""
    actor = operator()
    if manual:
        typer.echo(run(lambda s: approve(s, withdrawal_id=withdrawal_id, note=note, actor=actor)))
        return
    payout_id, line = run(
        lambda s: approve_for_payout(s, withdrawal_id=withdrawal_id, note=note, actor=actor)
    )
    typer.echo(line)
    try:
        typer.echo(asyncio.run(send_payout(payout_id)))
    except Exception as exc:  # the approval stands; the reconciler job finishes the payout
        typer.echo(f"payout #{payout_id}: not settled now ({exc}); the reconciler job will")


@app.command("reject")
def reject_command(
    withdrawal_id: Annotated[int, typer.Argument(metavar="ID")],
    reason: Annotated[str, typer.Option("--reason", help="Why (required).")],
) -> None:
    """Reject a PENDING withdrawal: the held money goes back to the wallet."""
    actor = operator()
    typer.echo(run(lambda s: reject(s, withdrawal_id=withdrawal_id, reason=reason, actor=actor)))
