"""HTTP face of the sandbox bank (``/sandbox/bank``), mounted only when ``PAO_SANDBOX=1``.

JSON API (what Pao's adapters and the page call):

* ``POST /sandbox/bank/api/transfers`` {fromBank, fromAccount, fromName?, toBank, toAccount,
  amount} → a transfer with ``reference``, ``sendingBank`` and ``slipUrl``;
* ``GET  /sandbox/bank/slips/{reference}.png`` → the slip image (mini QR inside);
* ``GET  /sandbox/bank/api/slips/{sendingBank}/{reference}`` → the transfer behind a slip
  (slip verification), 404 ``{"code": "NOT_FOUND"}``;
* ``POST /sandbox/bank/api/payouts`` {payoutId, bankCode, accountNo, accountName, amount,
  currency} → {payoutId, status, reason, reference} (idempotent by payoutId);
  ``GET /sandbox/bank/api/payouts/{payoutId}``; ``POST /sandbox/bank/api/payouts/controls``
  {modes: ["fail" | "timeout" | "late" | "error" | "succeed", …]} queues test behaviours;
* ``POST /sandbox/bank/api/qr-payments`` {fromBank, fromAccount, payload, amount?}: pays a
  PromptPay / Lao QR and notifies Pao (``POST {base_url}/api/payments/bank/notify``, signed
  ``X-Bank-Signature: hex(hmac_sha256(bank_webhook_secret, body))``); a bill payment QR
  (SCB's, :mod:`pao.sandbox.bank.scb`) is confirmed in SCB's format instead
  (``POST {base_url}/api/payments/bank/scb/notify``, unsigned like SCB's);
* ``POST /sandbox/bank/api/gateway-payments`` {gateway, orderId}: pays a sandbox gateway order.

A plain router (no unit of work): these handlers use the sandbox's own database only.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

import anyio
import httpx
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import ConfigDict, Field

from pao.core.params import RequestModel
from pao.sandbox.bank import scb, service
from pao.sandbox.bank.models import BankPayout, BankTransfer, PayoutMode
from pao.sandbox.bank.page import PAGE_HTML
from pao.sandbox.bank.slipimage import render_slip
from pao.sandbox.store import SandboxSessionDep

router = APIRouter(prefix="/sandbox/bank", include_in_schema=False)

Amount = Annotated[Decimal, Field(gt=0, max_digits=15, decimal_places=2)]


def _minor(amount: Decimal) -> int:
    return int(amount.scaleb(2))


def _major(minor: int) -> float:
    return float(Decimal(minor).scaleb(-2))


class _In(RequestModel):
    model_config = ConfigDict(populate_by_name=True)


class TransferIn(_In):
    from_bank: str = Field(alias="fromBank", max_length=10)
    from_account: str = Field(alias="fromAccount", max_length=30)
    from_name: str = Field(default="", alias="fromName", max_length=100)
    to_bank: str = Field(alias="toBank", max_length=10)
    to_account: str = Field(alias="toAccount", max_length=30)
    amount: Amount
    currency: str = Field(default="THB", pattern="^(THB|LAK)$")


class PayoutIn(_In):
    payout_id: str = Field(alias="payoutId", min_length=1, max_length=64)
    bank_code: str = Field(alias="bankCode", max_length=10)
    account_no: str = Field(alias="accountNo", max_length=30)
    account_name: str = Field(default="", alias="accountName", max_length=100)
    amount: Amount
    currency: str = Field(default="THB", pattern="^(THB|LAK)$")


class ControlsIn(_In):
    modes: list[PayoutMode] = Field(max_length=20)


class QrPaymentIn(_In):
    from_bank: str = Field(alias="fromBank", max_length=10)
    from_account: str = Field(alias="fromAccount", max_length=30)
    payload: str = Field(min_length=10, max_length=512)
    amount: Amount | None = None


class GatewayPaymentIn(_In):
    gateway: str = Field(pattern="^[A-Za-z0-9_-]{1,20}$")
    order_id: str = Field(alias="orderId", pattern="^[A-Za-z0-9_.:-]{1,80}$")


def _refused(code: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"code": code}, status_code=status)


def _transfer_out(record: BankTransfer) -> dict[str, Any]:
    return {
        "reference": record.reference,
        "sendingBank": record.sending_bank,
        "kind": record.kind,
        "amount": _major(record.amount),
        "currency": record.currency,
        "transferredAt": record.created_at.isoformat(),
        "sender": {
            "bankCode": record.from_bank,
            "accountNo": record.from_account,
            "name": record.from_name,
        },
        "receiver": {
            "bankCode": record.to_bank,
            "accountNo": record.to_account,
            "name": record.to_name,
        },
        "slipUrl": f"/sandbox/bank/slips/{record.reference}.png",
    }


def _payout_out(payout: BankPayout) -> dict[str, Any]:
    return {
        "payoutId": payout.payout_id,
        "status": payout.status,
        "reason": payout.reason,
        "reference": payout.reference,
        "amount": _major(payout.amount),
        "currency": payout.currency,
    }


@router.get("", response_class=HTMLResponse)
async def page() -> HTMLResponse:
    return HTMLResponse(PAGE_HTML)


@router.post("/api/transfers")
async def create_transfer(body: TransferIn, session: SandboxSessionDep) -> JSONResponse:
    try:
        record = await service.transfer(
            session,
            from_bank=body.from_bank,
            from_account=body.from_account,
            from_name=body.from_name,
            to_bank=body.to_bank,
            to_account=body.to_account,
            amount=_minor(body.amount),
            currency=body.currency,
        )
    except service.BankRefusal as exc:
        return _refused(exc.code)
    await session.commit()
    return JSONResponse(_transfer_out(record), status_code=201)


@router.get("/slips/{reference}.png")
async def slip_image(reference: str, session: SandboxSessionDep) -> Response:
    record = await service.find_by_reference(session, reference=reference)
    if record is None:
        return _refused("NOT_FOUND", 404)
    png = await anyio.to_thread.run_sync(render_slip, record)
    return Response(
        png,
        media_type="image/png",
        headers={"Content-Disposition": f'attachment; filename="slip-{reference}.png"'},
    )


@router.get("/api/slips/{sending_bank}/{reference}")
async def verify_slip(
    sending_bank: str, reference: str, session: SandboxSessionDep
) -> JSONResponse:
    record = await service.find_transfer(session, sending_bank=sending_bank, reference=reference)
    if record is None:
        return _refused("NOT_FOUND", 404)
    return JSONResponse(_transfer_out(record))


@router.post("/api/payouts")
async def create_payout(body: PayoutIn, session: SandboxSessionDep) -> JSONResponse:
    try:
        outcome = await service.create_payout(
            session,
            payout_id=body.payout_id,
            bank_code=body.bank_code,
            account_no=body.account_no,
            account_name=body.account_name,
            amount=_minor(body.amount),
            currency=body.currency,
        )
    except service.BankRefusal as exc:
        return _refused(exc.code)
    await session.commit()
    if outcome.mode is PayoutMode.ERROR or outcome.payout is None:
        return _refused("INTERNAL_ERROR", 500)
    if outcome.mode is PayoutMode.TIMEOUT:
        # The money moved, but the caller never hears so: a gateway timeout.
        return _refused("GATEWAY_TIMEOUT", 504)
    status = 202 if outcome.payout.status == "PENDING" else 200
    return JSONResponse(_payout_out(outcome.payout), status_code=status)


@router.post("/api/payouts/controls")
async def payout_controls(body: ControlsIn, session: SandboxSessionDep) -> JSONResponse:
    await service.queue_payout_modes(session, list(body.modes))
    await session.commit()
    return JSONResponse({"queued": [str(mode) for mode in body.modes]})


@router.get("/api/payouts/{payout_id}")
async def payout_status(payout_id: str, session: SandboxSessionDep) -> JSONResponse:
    payout = await service.get_payout(session, payout_id=payout_id)
    if payout is None:
        return _refused("NOT_FOUND", 404)
    await session.commit()
    return JSONResponse(_payout_out(payout))


def _sign(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


async def _confirm_as_scb(request: Request, fields: dict[str, Any]) -> int | None:
    """SCB's payment confirmation to Pao (SCB → the biller's registered URL)."""
    settings = request.app.state.settings
    http: httpx.AsyncClient = request.app.state.http
    try:
        answer = await http.post(f"{settings.base_url}/api/payments/bank/scb/notify", json=fields)
    except httpx.HTTPError:
        return None
    return answer.status_code


@router.post("/api/qr-payments")
async def pay_qr(body: QrPaymentIn, request: Request, session: SandboxSessionDep) -> JSONResponse:
    try:
        bill = service.read_qr(body.payload)
        made = await scb.check_payable(session, bill) if bill.ref1 else None
        record, target = await service.pay_qr(
            session,
            from_bank=body.from_bank,
            from_account=body.from_account,
            payload=body.payload,
            amount=_minor(body.amount) if body.amount is not None else None,
        )
    except service.BankRefusal as exc:
        return _refused(exc.code)
    if target.ref1:
        payment = await scb.record_payment(session, record, target, made)
        fields = scb.payment_fields(payment, record)
        await session.commit()
        confirmed = await _confirm_as_scb(request, fields)
        return JSONResponse({**_transfer_out(record), "notified": confirmed}, status_code=201)
    await session.commit()
    settings = request.app.state.settings
    paid_at: datetime = record.created_at
    notice = json.dumps(
        {
            "transferId": record.reference,
            "amount": _major(record.amount),
            "currency": record.currency,
            "receiverProxy": target.receiver_proxy,
            "qrPayload": body.payload.strip(),
            "paidAt": paid_at.isoformat(),
            # Who paid (SCB's sendingBankCode / payerAccountNumber / payerName).
            "payerBank": record.from_bank,
            "payerAccount": record.from_account,
            "payerName": record.from_name,
        }
    ).encode()
    http: httpx.AsyncClient = request.app.state.http
    try:
        answer = await http.post(
            f"{settings.base_url}/api/payments/bank/notify",
            content=notice,
            headers={
                "Content-Type": "application/json",
                "X-Bank-Signature": _sign(settings.bank_webhook_secret, notice),
            },
        )
        notified: int | None = answer.status_code
    except httpx.HTTPError:
        notified = None
    return JSONResponse({**_transfer_out(record), "notified": notified}, status_code=201)


@router.post("/api/gateway-payments")
async def pay_gateway(body: GatewayPaymentIn, request: Request) -> JSONResponse:
    settings = request.app.state.settings
    http: httpx.AsyncClient = request.app.state.http
    url = f"{settings.base_url}/sandbox/gateways/{body.gateway.upper()}/orders/{body.order_id}/pay"
    try:
        answer = await http.post(url)
    except httpx.HTTPError:
        return _refused("GATEWAY_UNREACHABLE", 502)
    try:
        detail: Any = answer.json()
    except ValueError:
        detail = answer.text[:500]
    return JSONResponse({"status": answer.status_code, "detail": detail}, status_code=200)
