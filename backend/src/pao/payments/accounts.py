"""The operator's receiving accounts: where members send deposits.

One table for every way in (ARCHITECTURE.md: configured in the database and by ``pao ops``):

* ``BANK``      a bank account members transfer to and prove with a slip (``mode`` MANUAL),
                or KBANK in ``AUTO`` mode, which also receives PromptPay QR payments
                (``promptpay_id``) and Lao QR (``lao_receiver_id``) in Lao mode;
* ``GATEWAY``   a payment gateway (WW, PAYTIMZ, PAYONEX): ``bankType`` PAYMENT on the wire;
* ``TRUEMONEY`` the TrueMoney wallet (``mode`` AUTO or gift-link).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Boolean, String, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency


class ReceivingKind(StrEnum):
    BANK = "BANK"
    GATEWAY = "GATEWAY"
    TRUEMONEY = "TRUEMONEY"


class ReceivingMode(StrEnum):
    AUTO = "AUTO"
    MANUAL = "MANUAL"
    GIFT_LINK = "GIFT_LINK"


class ReceivingAccount(Base):
    __tablename__ = "receiving_accounts"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    kind: Mapped[ReceivingKind] = mapped_column(String(12))
    # Bank code (KBANK, SCB, BCEL…) or gateway code (WW, PAYTIMZ, PAYONEX) or "TRUEMONEY".
    code: Mapped[str] = mapped_column(String(20), index=True)
    mode: Mapped[ReceivingMode] = mapped_column(String(12), default=ReceivingMode.MANUAL)
    account_name: Mapped[str] = mapped_column(String(100), default="")
    account_no: Mapped[str] = mapped_column(String(30), default="")
    promptpay_id: Mapped[str | None] = mapped_column(String(20))
    lao_receiver_id: Mapped[str | None] = mapped_column(String(40))
    currency: Mapped[Currency] = mapped_column(String(3), default=Currency.THB)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


async def active_accounts(
    session: AsyncSession, *, kind: ReceivingKind | None = None
) -> list[ReceivingAccount]:
    query = select(ReceivingAccount).where(ReceivingAccount.active.is_(True))
    if kind is not None:
        query = query.where(ReceivingAccount.kind == kind)
    return list((await session.execute(query.order_by(ReceivingAccount.id))).scalars())


async def find_active(
    session: AsyncSession, *, kind: ReceivingKind, code: str
) -> ReceivingAccount | None:
    query = select(ReceivingAccount).where(
        ReceivingAccount.active.is_(True),
        ReceivingAccount.kind == kind,
        ReceivingAccount.code == code.upper(),
    )
    return (await session.execute(query.order_by(ReceivingAccount.id))).scalars().first()


async def all_accounts(session: AsyncSession) -> list[ReceivingAccount]:
    query = select(ReceivingAccount).order_by(ReceivingAccount.id)
    return list((await session.execute(query)).scalars())


async def add_account(
    session: AsyncSession,
    *,
    kind: ReceivingKind,
    code: str,
    mode: ReceivingMode,
    account_name: str = "",
    account_no: str = "",
    promptpay_id: str | None = None,
    lao_receiver_id: str | None = None,
    currency: Currency = Currency.THB,
) -> ReceivingAccount:
    """Add an active receiving account; the rules of each kind are checked here."""
    code = code.strip().upper()
    if not code or len(code) > 20:
        raise ValueError("a code of 1..20 characters is required")
    if kind is ReceivingKind.TRUEMONEY and mode is ReceivingMode.MANUAL:
        raise ValueError("a TrueMoney wallet is AUTO or GIFT_LINK")
    if kind is not ReceivingKind.TRUEMONEY and mode is ReceivingMode.GIFT_LINK:
        raise ValueError("GIFT_LINK is a TrueMoney mode")
    if kind is ReceivingKind.GATEWAY and mode is not ReceivingMode.AUTO:
        raise ValueError("a gateway is AUTO")
    if kind is ReceivingKind.BANK and mode is ReceivingMode.AUTO:
        if currency is Currency.LAK and not lao_receiver_id:
            raise ValueError("an AUTO Lao bank account needs --lao-receiver-id")
        if currency is Currency.THB and not promptpay_id:
            raise ValueError("an AUTO bank account needs --promptpay-id")
    if promptpay_id is not None:
        from pao.payments.qr.promptpay import proxy_kind

        proxy_kind(promptpay_id)  # ValueError (PayloadError) when it is not a PromptPay id
    account = ReceivingAccount(
        kind=kind,
        code=code,
        mode=mode,
        account_name=account_name.strip(),
        account_no=account_no.strip(),
        promptpay_id=promptpay_id,
        lao_receiver_id=lao_receiver_id,
        currency=currency,
        active=True,
    )
    session.add(account)
    await session.flush()
    return account


async def disable_account(session: AsyncSession, *, account_id: int) -> ReceivingAccount:
    account = await session.get(ReceivingAccount, account_id)
    if account is None:
        raise ValueError(f"no receiving account {account_id}")
    account.active = False
    await session.flush()
    return account


# The demo's receiving accounts (pao demo): one of each way in.
DEMO_ACCOUNTS: tuple[dict[str, Any], ...] = (
    {
        "kind": ReceivingKind.BANK,
        "code": "SCB",
        "mode": ReceivingMode.MANUAL,
        "account_name": "PAO DEMO CO LTD",
        "account_no": "4071234567",
    },
    {
        "kind": ReceivingKind.BANK,
        "code": "KBANK",
        "mode": ReceivingMode.AUTO,
        "account_name": "PAO DEMO CO LTD",
        "account_no": "0481234567",
        "promptpay_id": "0812223333",
    },
    {"kind": ReceivingKind.GATEWAY, "code": "WW", "mode": ReceivingMode.AUTO},
    {"kind": ReceivingKind.GATEWAY, "code": "PAYTIMZ", "mode": ReceivingMode.AUTO},
    {"kind": ReceivingKind.GATEWAY, "code": "PAYONEX", "mode": ReceivingMode.AUTO},
    {
        "kind": ReceivingKind.TRUEMONEY,
        "code": "TRUEMONEY",
        "mode": ReceivingMode.GIFT_LINK,
        "account_name": "PAO DEMO WALLET",
        "account_no": "0891234567",
    },
)
DEMO_LAO_ACCOUNT: dict[str, Any] = {
    "kind": ReceivingKind.BANK,
    "code": "BCEL",
    "mode": ReceivingMode.AUTO,
    "account_name": "PAO DEMO LAO",
    "account_no": "0101000123456",
    "lao_receiver_id": "I90BYP17BC295VZ",
    "currency": Currency.LAK,
}


async def seed_receiving_accounts(session: AsyncSession, *, lao_mode: bool = False) -> list[str]:
    """Add the demo accounts that do not exist yet (by kind and code); idempotent."""
    lines = []
    wanted = [*DEMO_ACCOUNTS, *([DEMO_LAO_ACCOUNT] if lao_mode else [])]
    for spec in wanted:
        exists = (
            await session.execute(
                select(ReceivingAccount.id).where(
                    ReceivingAccount.kind == spec["kind"], ReceivingAccount.code == spec["code"]
                )
            )
        ).first()
        if exists is None:
            await add_account(session, **spec)
            lines.append(f"receiving account {spec['code']} ({spec['mode']}) added")
    return lines
