"""What a sandbox slip checker finds for a slip, whatever its wire format.

In order: the quota switch → QUOTA; no transfer with that sending bank and reference →
NOT_FOUND; younger than the control's ``too_new_seconds`` → TOO_NEW; checked before →
DUPLICATE; paid to an account outside SlipOK's branch accounts → RECEIVER (remembered);
else FOUND (remembered). The transfer is given with its account numbers masked, as the
providers show them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.payments.slips.decoder import SlipReadError, parse_slip_qr
from pao.sandbox.bank.models import BankTransfer
from pao.sandbox.bank.service import find_transfer
from pao.sandbox.slipcheck.models import SlipCheckControl, SlipCheckSeen


class Finding(StrEnum):
    QUOTA = "QUOTA"
    NOT_FOUND = "NOT_FOUND"
    TOO_NEW = "TOO_NEW"
    DUPLICATE = "DUPLICATE"
    RECEIVER = "RECEIVER"
    FOUND = "FOUND"


@dataclass(frozen=True)
class Checked:
    finding: Finding
    transfer: BankTransfer | None = None


def mask(account_no: str) -> str:
    """A number as the providers show it: 4 digits before the last one, ``xxx-x-x1234-x``
    for a 10-digit account."""
    n = len(account_no)
    shown = "".join(c if n - 5 <= i < n - 1 else "x" for i, c in enumerate(account_no))
    if n == 10:
        return f"{shown[:3]}-{shown[3]}-{shown[4:9]}-{shown[9]}"
    return shown


def qr_fields(payload: str) -> tuple[str, str] | None:
    """(sending bank, reference) of a slip QR text, or None when it is not one."""
    try:
        qr = parse_slip_qr(payload)
    except SlipReadError:
        return None
    return qr.sending_bank, qr.reference


async def control_of(session: AsyncSession, provider: str) -> SlipCheckControl:
    control = await session.get(SlipCheckControl, provider)
    return control or SlipCheckControl(
        provider=provider, too_new_seconds=0, quota_exhausted=False, receiver_accounts=[]
    )


async def set_control(
    session: AsyncSession,
    provider: str,
    *,
    too_new_seconds: int,
    quota_exhausted: bool,
    receiver_accounts: list[str],
) -> None:
    control = await session.get(SlipCheckControl, provider)
    if control is None:
        control = SlipCheckControl(provider=provider)
        session.add(control)
    control.too_new_seconds = too_new_seconds
    control.quota_exhausted = quota_exhausted
    control.receiver_accounts = receiver_accounts
    await session.flush()


async def check(
    session: AsyncSession,
    provider: str,
    *,
    sending_bank: str,
    reference: str,
    remember: bool,
    receiver_check: bool = False,
) -> Checked:
    """What ``provider`` answers about the slip; ``remember``: its duplicate check is on;
    ``receiver_check``: it checks the receiver against its branch accounts (SlipOK)."""
    control = await control_of(session, provider)
    if control.quota_exhausted:
        return Checked(Finding.QUOTA)
    transfer = await find_transfer(session, sending_bank=sending_bank, reference=reference)
    if transfer is None:
        return Checked(Finding.NOT_FOUND)
    if transfer.created_at > utcnow() - timedelta(seconds=control.too_new_seconds):
        return Checked(Finding.TOO_NEW, transfer)
    seen = await session.execute(
        select(SlipCheckSeen.id).where(
            SlipCheckSeen.provider == provider,
            SlipCheckSeen.sending_bank == sending_bank,
            SlipCheckSeen.reference == reference,
        )
    )
    if remember and seen.first() is not None:
        return Checked(Finding.DUPLICATE, transfer)
    if remember:
        session.add(
            SlipCheckSeen(provider=provider, sending_bank=sending_bank, reference=reference)
        )
        await session.flush()
    branch = control.receiver_accounts or []
    if receiver_check and branch and f"{transfer.to_bank}:{transfer.to_account}" not in branch:
        return Checked(Finding.RECEIVER, transfer)
    return Checked(Finding.FOUND, transfer)
