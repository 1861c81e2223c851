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
