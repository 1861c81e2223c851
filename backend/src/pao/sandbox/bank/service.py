"""The sandbox bank's rules: accounts, transfers, slips, payouts, QR payments.

Its own writes are committed by its handlers; nothing here touches Pao's database.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.sandbox.bank import tlv
from pao.sandbox.bank.models import (
    BankAccount,
    BankPayout,
    BankTransfer,
    PayoutControl,
    PayoutMode,
    PayoutState,
    TransferKind,
)

# Test money a new customer account starts with (minor units): 1,000,000.00.
OPENING_BALANCE = 1_000_000_00
# The 3-digit clearing codes the bank prints in slip mini QRs (Thai interbank codes; the
# sandbox gives the Lao banks codes of its own).
CLEARING_CODES: dict[str, str] = {
    "BBL": "002",
    "KBANK": "004",
    "KTB": "006",
    "TMB": "011",
    "SCB": "014",
    "CIMB": "022",
    "UOB": "024",
    "BAY": "025",
    "GSB": "030",
    "GHB": "033",
    "BAAC": "034",
    "TISCO": "067",
    "KKP": "069",
    "LHB": "073",
    "BCEL": "901",
    "LDB": "902",
    "APB": "903",
    "JDB": "904",
    "STB": "905",
}
LATE_PAYOUT_DELAY = timedelta(seconds=30)
_ACCOUNT_NO = re.compile(r"[0-9]{6,20}")
_BANK_CODE = re.compile(r"[A-Z]{2,10}")


class BankRefusal(Exception):
    """A request the bank refuses; ``code`` is its own error code."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def normalise_account(bank_code: str, account_no: str) -> tuple[str, str]:
    bank = bank_code.strip().upper()
    number = re.sub(r"[\s-]", "", account_no)
    if not _BANK_CODE.fullmatch(bank) or bank not in CLEARING_CODES:
        raise BankRefusal("UNKNOWN_BANK")
    if not _ACCOUNT_NO.fullmatch(number):
        raise BankRefusal("INVALID_ACCOUNT")
    return bank, number


async def open_account(
    session: AsyncSession, *, bank_code: str, account_no: str, name: str = "", currency: str = "THB"
) -> BankAccount:
    bank, number = normalise_account(bank_code, account_no)
    query = select(BankAccount).where(
        BankAccount.bank_code == bank, BankAccount.account_no == number
    )
    account = (await session.execute(query)).scalar_one_or_none()
    if account is None:
        account = BankAccount(
            bank_code=bank,
            account_no=number,
            name=name.strip()[:100],
            currency=currency,
            balance=OPENING_BALANCE,
        )
        try:
            async with session.begin_nested():
                session.add(account)
                await session.flush()
        except IntegrityError:
            account = (await session.execute(query)).scalar_one()
    elif name.strip() and not account.name:
        account.name = name.strip()[:100]
    return account


def _new_reference() -> str:
    # Like real slip references: digits, unique enough for a sandbox.
    return utcnow().strftime("%Y%m%d") + "".join(secrets.choice("0123456789") for _ in range(11))


async def transfer(
    session: AsyncSession,
    *,
    from_bank: str,
    from_account: str,
    from_name: str,
    to_bank: str,
    to_account: str,
    amount: int,
    currency: str = "THB",
) -> BankTransfer:
    if amount <= 0:
        raise BankRefusal("INVALID_AMOUNT")
    payer = await open_account(
        session, bank_code=from_bank, account_no=from_account, name=from_name, currency=currency
    )
    payee = await open_account(session, bank_code=to_bank, account_no=to_account, currency=currency)
    if payer.id == payee.id:
        raise BankRefusal("SAME_ACCOUNT")
    if payer.balance < amount:
        raise BankRefusal("INSUFFICIENT_FUNDS")
    payer.balance -= amount
    payee.balance += amount
    record = BankTransfer(
        reference=_new_reference(),
        kind=TransferKind.TRANSFER,
        sending_bank=CLEARING_CODES[payer.bank_code],
        from_bank=payer.bank_code,
        from_account=payer.account_no,
        from_name=payer.name,
        to_bank=payee.bank_code,
        to_account=payee.account_no,
        to_name=payee.name,
        amount=amount,
        currency=currency,
    )
    session.add(record)
    await session.flush()
    return record


def slip_qr_payload(record: BankTransfer) -> str:
    """The mini QR of a slip: 00 {00 000001, 01 sending bank, 02 reference}, 51 TH, 91 CRC."""
    inner = (
        tlv.field("00", "000001")
        + tlv.field("01", record.sending_bank)
        + tlv.field("02", record.reference)
    )
    return tlv.with_crc(tlv.field("00", inner) + tlv.field("51", "TH"), "91")


async def find_transfer(
    session: AsyncSession, *, sending_bank: str, reference: str
) -> BankTransfer | None:
    query = select(BankTransfer).where(
        BankTransfer.reference == reference, BankTransfer.sending_bank == sending_bank
    )
    return (await session.execute(query)).scalar_one_or_none()


async def find_by_reference(session: AsyncSession, *, reference: str) -> BankTransfer | None:
    query = select(BankTransfer).where(BankTransfer.reference == reference)
    return (await session.execute(query)).scalar_one_or_none()


# --- Payouts -------------------------------------------------------------------------------


async def queue_payout_modes(session: AsyncSession, modes: list[PayoutMode]) -> None:
    session.add_all(PayoutControl(mode=mode) for mode in modes)
    await session.flush()


async def _next_mode(session: AsyncSession) -> PayoutMode:
    control = (
        await session.execute(select(PayoutControl).order_by(PayoutControl.id).limit(1))
    ).scalar_one_or_none()
    if control is None:
        return PayoutMode.SUCCEED
    await session.delete(control)
    return PayoutMode(control.mode)


@dataclass(frozen=True)
class PayoutOutcome:
    payout: BankPayout | None
    mode: PayoutMode


async def _credit_payee(session: AsyncSession, payout: BankPayout) -> None:
    payee = await open_account(
        session,
        bank_code=payout.bank_code,
        account_no=payout.account_no,
        name=payout.account_name,
        currency=payout.currency,
    )
    # The opening balance is test money; a payout adds to it.
    payee.balance += payout.amount
    record = BankTransfer(
        reference=_new_reference(),
        kind=TransferKind.PAYOUT,
        sending_bank="000",
        from_bank="OPERATOR",
        from_account="payout",
        to_bank=payee.bank_code,
        to_account=payee.account_no,
        to_name=payee.name,
        amount=payout.amount,
        currency=payout.currency,
    )
    session.add(record)
    payout.reference = record.reference
    payout.status = PayoutState.SUCCESS
    await session.flush()


async def create_payout(
    session: AsyncSession,
    *,
    payout_id: str,
    bank_code: str,
    account_no: str,
    account_name: str,
    amount: int,
    currency: str,
) -> PayoutOutcome:
    """Idempotent by ``payout_id``: a repeat returns the payout as it is, paying nothing."""
    existing = await get_payout(session, payout_id=payout_id)
    if existing is not None:
        return PayoutOutcome(existing, PayoutMode.SUCCEED)
    if amount <= 0:
        raise BankRefusal("INVALID_AMOUNT")
    bank, number = normalise_account(bank_code, account_no)
    mode = await _next_mode(session)
    if mode is PayoutMode.ERROR:
        return PayoutOutcome(None, mode)
    payout = BankPayout(
        payout_id=payout_id,
        bank_code=bank,
        account_no=number,
        account_name=account_name[:100],
        amount=amount,
        currency=currency,
        status=PayoutState.PENDING,
    )
    session.add(payout)
    await session.flush()
    if mode is PayoutMode.FAIL:
        payout.status = PayoutState.FAILED
        payout.reason = "ACCOUNT_CANNOT_RECEIVE"
    elif mode is PayoutMode.LATE:
        payout.settles_at = utcnow() + LATE_PAYOUT_DELAY
    else:
        await _credit_payee(session, payout)
    await session.flush()
    return PayoutOutcome(payout, mode)


async def get_payout(session: AsyncSession, *, payout_id: str) -> BankPayout | None:
    payout = (
        await session.execute(select(BankPayout).where(BankPayout.payout_id == payout_id))
    ).scalar_one_or_none()
    if (
        payout is not None
        and payout.status == PayoutState.PENDING
        and payout.settles_at is not None
        and payout.settles_at <= utcnow()
    ):
        await _credit_payee(session, payout)
    return payout


# --- QR payments ---------------------------------------------------------------------------

PROMPTPAY_AID = "A000000677010111"
# Thai QR tag 30: a bill payment to a biller id, with its references (SCB's QR create).
BILL_PAYMENT_AID = "A000000677010112"
LAO_AID = "A005266284662577"


@dataclass(frozen=True)
class QrTarget:
    receiver_proxy: str  # PromptPay id (mobile 0066…, national id, e-wallet) or Lao receiver id
    currency: str
    amount: int | None  # minor units, None for a static QR
    # A bill payment QR (tag 30): the receiver is a biller id, the payment names ref1/ref2.
    ref1: str | None = None
    ref2: str = ""


def read_qr(payload: str) -> QrTarget:
    """The receiver and amount of a Thai PromptPay (tag 29), Thai bill payment (tag 30) or Lao
    QR (tag 38) payload."""
    payload = payload.strip()
    try:
        tlv.check_crc(payload, "63")
        fields = tlv.parse(payload)
        amount: int | None = None
        if "54" in fields:
            major, _, minor = fields["54"].partition(".")
            if not major.isdigit() or (minor and not minor.isdigit()) or len(minor) > 2:
                raise BankRefusal("INVALID_QR")
            amount = int(major) * 100 + int((minor or "0").ljust(2, "0"))
        if "29" in fields:
            merchant = tlv.parse(fields["29"])
            if merchant.get("00") != PROMPTPAY_AID:
                raise BankRefusal("INVALID_QR")
            proxy = merchant.get("01") or merchant.get("02") or merchant.get("03")
            currency = "THB"
        elif "30" in fields:
            merchant = tlv.parse(fields["30"])
            proxy = merchant.get("01")
            if merchant.get("00") != BILL_PAYMENT_AID or not proxy or not merchant.get("02"):
                raise BankRefusal("INVALID_QR")
            return QrTarget(proxy, "THB", amount, merchant["02"], merchant.get("03", ""))
        elif "38" in fields:
            merchant = tlv.parse(fields["38"])
            if merchant.get("00") != LAO_AID:
                raise BankRefusal("INVALID_QR")
            proxy = merchant.get("03")
            currency = "LAK"
        else:
            raise BankRefusal("INVALID_QR")
    except tlv.TlvError:
        raise BankRefusal("INVALID_QR") from None
    if not proxy:
        raise BankRefusal("INVALID_QR")
    return QrTarget(receiver_proxy=proxy, currency=currency, amount=amount)


async def pay_qr(
    session: AsyncSession,
    *,
    from_bank: str,
    from_account: str,
    payload: str,
    amount: int | None,
) -> tuple[BankTransfer, QrTarget]:
    target = read_qr(payload)
    to_pay = target.amount if target.amount is not None else amount
    if to_pay is None or to_pay <= 0:
        raise BankRefusal("AMOUNT_REQUIRED")
    if target.amount is not None and amount is not None and amount != target.amount:
        raise BankRefusal("AMOUNT_MISMATCH")
    payer = await open_account(
        session, bank_code=from_bank, account_no=from_account, currency=target.currency
    )
    if payer.balance < to_pay:
        raise BankRefusal("INSUFFICIENT_FUNDS")
    payer.balance -= to_pay
    record = BankTransfer(
        reference=_new_reference(),
        kind=TransferKind.QR,
        sending_bank=CLEARING_CODES[payer.bank_code],
        from_bank=payer.bank_code,
        from_account=payer.account_no,
        from_name=payer.name,
        to_bank="QR",
        to_account=target.receiver_proxy[:40],
        amount=to_pay,
        currency=target.currency,
    )
    session.add(record)
    await session.flush()
    return record, target
