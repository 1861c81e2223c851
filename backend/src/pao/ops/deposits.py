"""``pao ops deposit PHONE AMOUNT --note TEXT``: credit a member's wallet by hand.

The credit is a manual adjustment posted at once by ``ops:<user>``
(:func:`pao.wallet.adjustments.credit_manually`, the function behind the back office's
adjustments): an operator at the server's shell gets no four eyes. It is written to the audit
log like the back office's, with the operator as the actor.
"""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit.service import Actor, record
from pao.kit.money import Currency
from pao.ops.base import OpsError, fail, format_money, operator, parse_amount, run
from pao.wallet.adjustments import credit_manually, snapshot
from pao.wallet.exceptions import MemberNotFound
from pao.wallet.service import find_member_by_phone, wallet_balance

# The audit action of a requested (here: at once posted) adjustment, as in the back office.
AUDIT_ACTION = "adjustment.request"


async def manual_deposit(
    session: AsyncSession, *, phone: str, amount: int, note: str, actor: str
) -> str:
    """Credit ``amount`` (minor units) to the member with ``phone``; returns the report line."""
    if not note.strip():
        raise OpsError("a note saying why is required (--note)")
    try:
        member = await find_member_by_phone(session, phone=phone)
    except MemberNotFound:
        raise OpsError(f"no member with phone {phone}") from None
    credit = await credit_manually(session, member=member, amount=amount, note=note, actor=actor)
    await record(
        session,
        actor=Actor.operator(actor),
        action=AUDIT_ACTION,
        object_type="adjustment",
        object_id=credit.adjustment.id,
        after=snapshot(credit.adjustment),
    )
    currency = Currency(member.currency)
    balance = await wallet_balance(session, member_id=member.id, currency=currency)
    return (
        f"credited {format_money(amount, currency)} to {member.phone} ({member.name}); "
        f"balance {format_money(balance, currency)}; adjustment {credit.adjustment.id}, "
        f"journal entry {credit.entry.id} by {actor}"
    )


def deposit(
    phone: Annotated[str, typer.Argument(help="The member's phone number.")],
    amount: Annotated[str, typer.Argument(help="Baht (kip), at most 2 decimals, e.g. 500.25.")],
    note: Annotated[str, typer.Option("--note", help="Why (required); kept on the entry.")],
) -> None:
    """Credit a member's wallet by hand: a posted manual adjustment (no approval at the shell)."""
    try:
        minor = parse_amount(amount)
    except OpsError as exc:
        fail(str(exc))
    actor = operator()
    typer.echo(run(lambda s: manual_deposit(s, phone=phone, amount=minor, note=note, actor=actor)))
