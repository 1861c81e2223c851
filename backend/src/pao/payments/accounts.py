"""The operator's receiving accounts: where members send deposits.

One table for every way in (ARCHITECTURE.md: configured in the database and by ``pao ops``):

* ``BANK``      a bank account members transfer to and prove with a slip (``mode`` MANUAL),
                or KBANK in ``AUTO`` mode, which also receives PromptPay QR payments
                (``promptpay_id``) and Lao QR (``lao_receiver_id``) in Lao mode;
* ``GATEWAY``   a payment gateway (WW, PAYTIMZ, PAYONEX): ``bankType`` PAYMENT on the wire;
* ``TRUEMONEY`` the TrueMoney wallet (``mode`` AUTO or gift-link).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Boolean, String, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import Base, BigId, UtcDateTime
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.payments.exceptions import ReceivingAccountInvalid, ReceivingAccountNotFound


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


@dataclass(frozen=True)
class AccountFields:
    """What an account is, as checked by :func:`validate` (add and edit both build one)."""

    kind: ReceivingKind
    code: str
    mode: ReceivingMode
    account_name: str = ""
    account_no: str = ""
    promptpay_id: str | None = None
    lao_receiver_id: str | None = None
    currency: Currency = Currency.THB


_ACCOUNT_NO = re.compile(r"[0-9][0-9 -]{0,29}")
_LAO_RECEIVER = re.compile(r"[A-Za-z0-9]{1,40}")
EDITABLE = (
    "code",
    "mode",
    "account_name",
    "account_no",
    "promptpay_id",
    "lao_receiver_id",
    "currency",
)


def _refuse(field: str, detail: str) -> ReceivingAccountInvalid:
    return ReceivingAccountInvalid(field=field, detail=detail)


def validate(fields: AccountFields) -> AccountFields:
    """The rules the deposit lookup relies on; returns the fields tidied (codes upper-case,
    blanks stripped, empty optional ids as None). Refusals name the wire field."""
    from pao.payments.gateways.registry import GATEWAY_CODES
    from pao.payments.qr.emv import PayloadError
    from pao.payments.qr.promptpay import proxy_kind
    from pao.site.banks import find_bank

    kind, mode = ReceivingKind(fields.kind), ReceivingMode(fields.mode)
    currency = Currency(fields.currency)
    code = fields.code.strip().upper()
    name, number = fields.account_name.strip(), fields.account_no.strip()
    promptpay = (fields.promptpay_id or "").strip() or None
    lao_receiver = (fields.lao_receiver_id or "").strip() or None
    if len(name) > 100:
        raise _refuse("accountName", "at most 100 characters")
    if number and not _ACCOUNT_NO.fullmatch(number):
        raise _refuse("accountNo", "digits (spaces and dashes allowed), at most 30")
    if kind is ReceivingKind.BANK:
        bank = find_bank(code)
        if bank is None:
            raise _refuse("code", f"{code!r} is not a known bank")
        if currency is not (Currency.LAK if bank.country == "LA" else Currency.THB):
            raise _refuse("currency", f"a {bank.country} bank receives {bank.country} money")
        if not number:
            raise _refuse("accountNo", "a bank account needs its number (slips are checked on it)")
        if mode is ReceivingMode.GIFT_LINK:
            raise _refuse("mode", "GIFT_LINK is a TrueMoney mode")
        if mode is ReceivingMode.AUTO and currency is Currency.THB and promptpay is None:
            raise _refuse("promptpayId", "an AUTO bank account needs a PromptPay id")
        if mode is ReceivingMode.AUTO and currency is Currency.LAK and lao_receiver is None:
            raise _refuse("laoReceiverId", "an AUTO Lao bank account needs a Lao QR receiver id")
    elif kind is ReceivingKind.GATEWAY:
        if code not in GATEWAY_CODES:
            raise _refuse("code", f"a gateway is one of {', '.join(GATEWAY_CODES)}")
        if mode is not ReceivingMode.AUTO:
            raise _refuse("mode", "a gateway is AUTO")
    else:
        if code != "TRUEMONEY":
            raise _refuse("code", "a TrueMoney wallet's code is TRUEMONEY")
        if mode is ReceivingMode.MANUAL:
            raise _refuse("mode", "a TrueMoney wallet is AUTO or GIFT_LINK")
    if promptpay is not None:
        try:
            proxy_kind(promptpay)
        except PayloadError:
            raise _refuse(
                "promptpayId", "a 10-digit mobile, 13-digit id or 15-digit e-wallet"
            ) from None
    if lao_receiver is not None and not _LAO_RECEIVER.fullmatch(lao_receiver):
        raise _refuse("laoReceiverId", "letters and digits, at most 40")
    return AccountFields(
        kind=kind,
        code=code,
        mode=mode,
        account_name=name,
        account_no=number,
        promptpay_id=promptpay,
        lao_receiver_id=lao_receiver,
        currency=currency,
    )


def snapshot(account: ReceivingAccount) -> dict[str, Any]:
    """The audited view of an account (camelCase, like the wire)."""
    return {
        "kind": str(account.kind),
        "code": account.code,
        "mode": str(account.mode),
        "accountName": account.account_name,
        "accountNo": account.account_no,
        "promptpayId": account.promptpay_id,
        "laoReceiverId": account.lao_receiver_id,
        "currency": str(account.currency),
        "active": account.active,
    }


async def get_account(session: AsyncSession, *, account_id: int) -> ReceivingAccount:
    account = await session.get(ReceivingAccount, account_id)
    if account is None:
        raise ReceivingAccountNotFound()
    return account


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
    """Add an active receiving account (``pao ops accounts add`` and the back office)."""
    fields = validate(
        AccountFields(
            kind=kind,
            code=code,
            mode=mode,
            account_name=account_name,
            account_no=account_no,
            promptpay_id=promptpay_id,
            lao_receiver_id=lao_receiver_id,
            currency=currency,
        )
    )
    account = ReceivingAccount(**asdict(fields), active=True)
    session.add(account)
    await session.flush()
    return account


async def edit_account(
    session: AsyncSession, *, account_id: int, changes: dict[str, Any]
) -> ReceivingAccount:
    """Change some of :data:`EDITABLE` (and ``active``); the result is checked as a whole."""
    account = await get_account(session, account_id=account_id)
    unknown = set(changes) - {*EDITABLE, "active"}
    if unknown:
        raise _refuse(sorted(unknown)[0], "not an editable field")
    current = {name: getattr(account, name) for name in EDITABLE}
    wanted = {**current, **{k: v for k, v in changes.items() if k != "active"}}
    fields = validate(AccountFields(kind=ReceivingKind(account.kind), **wanted))
    for name in EDITABLE:
        setattr(account, name, getattr(fields, name))
    if "active" in changes:
        account.active = bool(changes["active"])
    await session.flush()
    return account


async def set_active(session: AsyncSession, *, account_id: int, active: bool) -> ReceivingAccount:
    """Offer an account again, or stop offering it (kept for history; late payments to it
    still credit)."""
    account = await get_account(session, account_id=account_id)
    account.active = active
    await session.flush()
    return account


async def disable_account(session: AsyncSession, *, account_id: int) -> ReceivingAccount:
    return await set_active(session, account_id=account_id, active=False)


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
