"""The sandbox bank as SCB's QR payment API (providers.md §6), from its own transfers:

* ``POST /sandbox/scb/partners/v2/payment/qrcode/create`` (OAuth token of the sandbox SCB,
  ``pao.sandbox.slipcheck``) → ``data{qrRawData, qrImage}``: a Thai QR tag 30 bill payment
  QR (biller id, ref1, ref2, amount) that the sandbox bank page pays like any QR;
* paying it records an :class:`ScbBillPayment` (a ``transactionId``) and the bank page's
  handler sends SCB's payment confirmation to Pao (:func:`confirmation_body`);
* ``GET /sandbox/scb/partners/v1/payment/billpayment/inquiry`` → the payments of a ref1 on a
  day; answers 4290 while the slip checkers' SCB control has its quota switch on (``POST
  /sandbox/slipcheck/controls {provider: "scb", quotaExhausted: true}``: SCB down).
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field, ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.params import RequestModel
from pao.kit.clock import utcnow
from pao.sandbox.bank import tlv
from pao.sandbox.bank.models import BankTransfer, ScbBillPayment, ScbQr
from pao.sandbox.bank.service import BILL_PAYMENT_AID, BankRefusal, QrTarget
from pao.sandbox.slipcheck.models import ScbToken
from pao.sandbox.slipcheck.service import control_of
from pao.sandbox.store import SandboxSessionDep

router = APIRouter(include_in_schema=False)

BANGKOK = timedelta(hours=7)
Ref = Annotated[str, Field(pattern="^[A-Z0-9]{1,20}$")]


class QrCreateIn(RequestModel):
    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    qr_type: str = Field(alias="qrType", pattern="^PP$")
    pp_type: str = Field(alias="ppType", pattern="^BILLERID$")
    pp_id: str = Field(alias="ppId", pattern="^[0-9]{15}$")
    amount: Decimal = Field(gt=0, max_digits=15, decimal_places=2)
    ref1: Ref
    ref2: Ref | None = None
    ref3: Ref
    number_of_times: int | None = Field(default=None, alias="numberOfTimes", ge=0, le=9999)
    expiry_date: str | None = Field(default=None, alias="expiryDate")


def _scb(code: int, description: str, status: int, data: Any = None) -> JSONResponse:
    return JSONResponse(
        {"status": {"code": code, "description": description}, "data": data}, status
    )


async def _authorised(request: Request, session: AsyncSession) -> bool:
    auth = request.headers.get("authorization", "")
    held = await session.get(ScbToken, auth.removeprefix("Bearer ").strip()) if auth else None
    key = request.app.state.settings.scb_api_key.get_secret_value()
    return (
        held is not None
        and held.expires_at > utcnow()
        and request.headers.get("resourceOwnerId") == key
        and bool(request.headers.get("requestUId"))
    )


def _amount_text(minor: int) -> str:
    return f"{minor // 100}.{minor % 100:02d}"


def build_bill_qr(*, biller_id: str, ref1: str, ref2: str, amount: int) -> str:
    """A Thai QR tag 30 bill payment payload (dynamic, with its amount)."""
    merchant = (
        tlv.field("00", BILL_PAYMENT_AID)
        + tlv.field("01", biller_id)
        + tlv.field("02", ref1)
        + (tlv.field("03", ref2) if ref2 else "")
    )
    body = (
        tlv.field("00", "01")
        + tlv.field("01", "12")
        + tlv.field("30", merchant)
        + tlv.field("53", "764")
        + tlv.field("54", _amount_text(amount))
        + tlv.field("58", "TH")
    )
    return tlv.with_crc(body, "63")


def _expiry(text: str | None) -> datetime | None:
    if not text:
        return None
    # SCB's local time (Bangkok), as Pao writes it (ADR 0029).
    return datetime.strptime(text + "+0700", "%Y-%m-%d %H:%M:%S%z").astimezone(UTC)


@router.post("/sandbox/scb/partners/v2/payment/qrcode/create")
async def qr_create(request: Request, session: SandboxSessionDep) -> JSONResponse:
    if not await _authorised(request, session):
        return _scb(4011, "Unauthorized (sandbox)", 401)
    try:
        body = QrCreateIn.model_validate_json(await request.body())
        expires_at = _expiry(body.expiry_date)
        amount = int(body.amount.scaleb(2))
    except (ValidationError, ValueError, InvalidOperation):
        return _scb(4001, "Invalid parameters (sandbox)", 400)
    if body.number_of_times and expires_at is None:
        return _scb(4001, "expiryDate is required with numberOfTimes (sandbox)", 400)
    qr = ScbQr(
        biller_id=body.pp_id,
        ref1=body.ref1,
        ref2=body.ref2 or "",
        ref3=body.ref3,
        amount=amount,
        expires_at=expires_at,
    )
    session.add(qr)
    await session.commit()
    raw = build_bill_qr(biller_id=qr.biller_id, ref1=qr.ref1, ref2=qr.ref2, amount=amount)
    return _scb(1000, "Success", 200, {"qrRawData": raw, "qrImage": ""})


async def check_payable(session: AsyncSession, target: QrTarget) -> ScbQr | None:
    """The QR SCB made for this bill payment, refused once expired; None: a bill payment
    QR made elsewhere (the bank pays it all the same)."""
    query = (
        select(ScbQr)
        .where(ScbQr.biller_id == target.receiver_proxy, ScbQr.ref1 == target.ref1)
        .order_by(ScbQr.id.desc())
    )
    made = (await session.execute(query)).scalars().first()
    if made is not None and made.expires_at is not None and made.expires_at <= utcnow():
        raise BankRefusal("QR_EXPIRED")
    return made


async def record_payment(
    session: AsyncSession, record: BankTransfer, target: QrTarget, made: ScbQr | None
) -> ScbBillPayment:
    payment = ScbBillPayment(
        transaction_id=str(uuid.uuid4()),
        reference=record.reference,
        biller_id=target.receiver_proxy,
        ref1=target.ref1 or "",
        ref2=target.ref2,
        ref3=made.ref3 if made is not None else "",
        amount=record.amount,
    )
    session.add(payment)
    await session.flush()
    return payment


def payment_fields(payment: ScbBillPayment, record: BankTransfer) -> dict[str, Any]:
    """A payment in SCB's confirmation fields (the callback's and, UNCONFIRMED, the
    inquiry's), as providers.md §6's example writes them."""
    local = (payment.created_at + BANGKOK).replace(tzinfo=None)
    return {
        "transactionDateandTime": local.isoformat(timespec="seconds") + "+07:00",
        "sendingBankCode": record.sending_bank,
        "payerName": record.from_name,
        "payerProxyType": "ACCOUNT",
        "payerProxyId": record.from_account,
        "payerAccountNumber": record.from_account,
        "receivingBankCode": "014",
        "payeeName": "PAO SANDBOX BILLER",
        "payeeProxyType": "BILLERID",
        "payeeProxyId": payment.biller_id,
        "payeeAccountNumber": "0000000000",
        "amount": _amount_text(payment.amount),
        "currencyCode": "764",
        "transactionId": payment.transaction_id,
        "transactionType": "Domestic Transfers",
        "billPaymentRef1": payment.ref1,
        "billPaymentRef2": payment.ref2,
        "billPaymentRef3": payment.ref3,
        "channelCode": "PMH",
    }


@router.get("/sandbox/scb/partners/v1/payment/billpayment/inquiry")
async def inquiry(request: Request, session: SandboxSessionDep) -> JSONResponse:
    if not await _authorised(request, session):
        return _scb(4011, "Unauthorized (sandbox)", 401)
    if (await control_of(session, "scb")).quota_exhausted:
        return _scb(4290, "Too many requests (sandbox)", 429)
    params = request.query_params
    try:
        day = date.fromisoformat(params.get("transactionDate", ""))
    except ValueError:
        return _scb(4001, "transactionDate is required (sandbox)", 400)
    if params.get("eventCode") != "00300100" or not params.get("billerId"):
        return _scb(4001, "eventCode and billerId are required (sandbox)", 400)
    query = (
        select(ScbBillPayment, BankTransfer)
        .join(BankTransfer, BankTransfer.reference == ScbBillPayment.reference)
        .where(
            ScbBillPayment.biller_id == params["billerId"],
            ScbBillPayment.ref1 == params.get("reference1", ""),
        )
        .order_by(ScbBillPayment.id)
    )
    found = [
        payment_fields(payment, record)
        for payment, record in (await session.execute(query)).all()
        if (payment.created_at + BANGKOK).date() == day
    ]
    return _scb(1000, "Success", 200, found)
