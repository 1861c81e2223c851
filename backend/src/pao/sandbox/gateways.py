"""The sandbox payment gateways WW, PAYTIMZ and PAYONEX: each speaks its own wire format
(mirroring Pao's adapters in :mod:`pao.payments.gateways`), keeps orders in the sandbox
database, and sends the signed callback to Pao when an order is paid.

Controls for tests and the sandbox bank page:

* ``POST /sandbox/gateways/{code}/orders/{orderId}/pay {callback}`` pays the order;
  ``callback`` is ``normal`` (one callback), ``drop`` (none: the reconciler must find the
  payment) or ``twice`` (the same callback sent two times);
* ``POST /sandbox/gateways/{code}/orders/{orderId}/callback`` (re)sends the callback now
  (a late callback, e.g. after the QR expired);
* ``POST /sandbox/gateways/pay {payload, callback}`` pays the order whose QR text this is;
* ``GET /sandbox/gateways/{code}/orders/{orderId}`` shows an order.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from typing import Any, Literal
from urllib.parse import parse_qsl, urlencode

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import BigInteger, Integer, String, Text, UniqueConstraint, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import UtcDateTime
from pao.core.settings import Settings
from pao.core.uow import UnitOfWorkRoute
from pao.kit.clock import utcnow
from pao.payments.gateways import payonex, paytimz, ww
from pao.payments.gateways.base import (
    InvalidSignature,
    major_text_to_minor,
    minor_to_major_text,
    same,
)
from pao.payments.qr.promptpay import PromptPayQr, ProxyKind, build_promptpay
from pao.sandbox.store import SandboxBase, SandboxSessionDep

router = APIRouter(route_class=UnitOfWorkRoute)
OPTS: dict[str, Any] = {"include_in_schema": False, "tags": ["sandbox"]}

# Each sandbox gateway collects into its own (made-up) PromptPay e-wallet id.
GATEWAY_PROXY = {
    "WW": "004999000000001",
    "PAYTIMZ": "004999000000002",
    "PAYONEX": "004999000000003",
}


class SandboxGatewayOrder(SandboxBase):
    __tablename__ = "sandbox_gateway_orders"
    __table_args__ = (UniqueConstraint("gateway", "merchant_ref"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    gateway: Mapped[str] = mapped_column(String(10))
    order_id: Mapped[str] = mapped_column(String(40), unique=True)
    merchant_ref: Mapped[str] = mapped_column(String(40))
    amount: Mapped[int] = mapped_column(BigInteger)
    currency: Mapped[str] = mapped_column(String(3))
    status: Mapped[str] = mapped_column(String(10), default="PENDING")
    txn_id: Mapped[str | None] = mapped_column(String(40))
    notify_url: Mapped[str] = mapped_column(String(500))
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    paid_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def _open_order(
    session: AsyncSession,
    *,
    gateway: str,
    merchant_ref: str,
    amount: int,
    currency: str,
    notify_url: str,
) -> SandboxGatewayOrder:
    """Create the order, or return the one already made for this merchant reference (the
    merchant's retry, possibly concurrent)."""
    existing = await _by_ref(session, gateway, merchant_ref)
    if existing is not None:
        return existing
    order_id = gateway[:2] + secrets.token_hex(8).upper()
    payload = build_promptpay(
        PromptPayQr(
            kind=ProxyKind.EWALLET, proxy=GATEWAY_PROXY[gateway], amount=amount, reference=order_id
        )
    )
    order = SandboxGatewayOrder(
        gateway=gateway,
        order_id=order_id,
        merchant_ref=merchant_ref,
        amount=amount,
        currency=currency,
        notify_url=notify_url,
        payload=payload,
    )
    session.add(order)
    try:
        await session.commit()
    except IntegrityError:
        await session.rollback()
        raced = await _by_ref(session, gateway, merchant_ref)
        assert raced is not None
        return raced
    return order


def _refused(status: int = 401) -> JSONResponse:
    return JSONResponse({"error": "bad signature"}, status_code=status)


# --- WW ---------------------------------------------------------------------------------------


@router.post("/sandbox/gateways/ww/api/v1/orders", **OPTS)
async def ww_create(request: Request, session: SandboxSessionDep) -> Response:
    raw = await request.body()
    secret = _settings(request).gateway_ww_secret
    if not same(request.headers.get(ww.HEADER, ""), ww.sign(secret, raw)):
        return _refused()
    data = json.loads(raw)
    order = await _open_order(
        session,
        gateway="WW",
        merchant_ref=str(data["merchantRef"]),
        amount=major_text_to_minor(str(data["amount"])),
        currency=str(data["currency"]),
        notify_url=str(data["notifyUrl"]),
    )
    return JSONResponse({"orderId": order.order_id, "qrText": order.payload, "status": "PENDING"})


def _ww_view(order: SandboxGatewayOrder) -> dict[str, Any]:
    return {
        "orderId": order.order_id,
        "merchantRef": order.merchant_ref,
        "status": order.status,
        "txnId": order.txn_id,
        "amount": minor_to_major_text(order.amount),
        "currency": order.currency,
    }


@router.get("/sandbox/gateways/ww/api/v1/orders/{merchant_ref}", **OPTS)
async def ww_status(merchant_ref: str, request: Request, session: SandboxSessionDep) -> Response:
    secret = _settings(request).gateway_ww_secret
    if not same(request.headers.get(ww.HEADER, ""), ww.sign(secret, merchant_ref.encode())):
        return _refused()
    order = await _by_ref(session, "WW", merchant_ref)
    if order is None:
        return JSONResponse({"error": "not found"}, status_code=404)
    return JSONResponse(_ww_view(order))


# --- PAYTIMZ ----------------------------------------------------------------------------------


async def _paytimz_form(request: Request) -> dict[str, str] | None:
    fields = dict(parse_qsl((await request.body()).decode("ascii", "replace")))
    secret = _settings(request).gateway_paytimz_secret
    if not same(fields.get("sign", ""), paytimz.sign(secret, fields)):
        return None
    return fields


@router.post("/sandbox/gateways/paytimz/gateway/create", **OPTS)
async def paytimz_create(request: Request, session: SandboxSessionDep) -> Response:
    fields = await _paytimz_form(request)
    if fields is None:
        return JSONResponse({"code": "401", "msg": "sign error"})
    order = await _open_order(
        session,
        gateway="PAYTIMZ",
        merchant_ref=fields["out_trade_no"],
        amount=int(fields["total_fee"]),
        currency="THB",
        notify_url=fields["notify_url"],
    )
    return JSONResponse({"code": "0", "trade_no": order.order_id, "qr_content": order.payload})


@router.post("/sandbox/gateways/paytimz/gateway/query", **OPTS)
async def paytimz_query(request: Request, session: SandboxSessionDep) -> Response:
    fields = await _paytimz_form(request)
    if fields is None:
        return JSONResponse({"code": "401", "msg": "sign error"})
    order = await _by_ref(session, "PAYTIMZ", fields.get("out_trade_no", ""))
    if order is None:
        return JSONResponse({"code": "404"})
    return JSONResponse(
        {
            "code": "0",
            "out_trade_no": order.merchant_ref,
            "trade_no": order.order_id,
            "trade_status": "SUCCESS" if order.status == "PAID" else "WAITING",
            "transaction_id": order.txn_id or "",
            "total_fee": str(order.amount),
        }
    )


# --- PAYONEX ----------------------------------------------------------------------------------


def _payonex_ok(request: Request, data: bytes) -> bool:
    try:
        payonex.check_header(
            _settings(request).gateway_payonex_secret,
            request.headers.get(payonex.HEADER, ""),
            data,
        )
    except InvalidSignature:
        return False
    return True


def _payonex_view(order: SandboxGatewayOrder) -> dict[str, Any]:
    return {
        "id": order.order_id,
        "reference": order.merchant_ref,
        "amount": order.amount,
        "currency": order.currency,
        "state": "paid" if order.status == "PAID" else "open",
        "transaction": order.txn_id,
        "qr": {"payload": order.payload},
    }


@router.post("/sandbox/gateways/payonex/v2/charges", **OPTS)
async def payonex_create(request: Request, session: SandboxSessionDep) -> Response:
    raw = await request.body()
    if not _payonex_ok(request, raw):
        return _refused()
    data = json.loads(raw)
    order = await _open_order(
        session,
        gateway="PAYONEX",
        merchant_ref=str(data["reference"]),
        amount=int(data["amount"]),
        currency=str(data["currency"]),
        notify_url=str(data["callback_url"]),
    )
    return JSONResponse(_payonex_view(order), status_code=201)


@router.get("/sandbox/gateways/payonex/v2/charges", **OPTS)
async def payonex_status(request: Request, session: SandboxSessionDep, reference: str) -> Response:
    if not _payonex_ok(request, f"/charges?reference={reference}".encode()):
        return _refused()
    order = await _by_ref(session, "PAYONEX", reference)
    if order is None:
        return JSONResponse({"error": "not found"}, status_code=404)
    return JSONResponse(_payonex_view(order))


# --- paying and calling back --------------------------------------------------------------------


async def _by_ref(session: AsyncSession, gateway: str, ref: str) -> SandboxGatewayOrder | None:
    query = select(SandboxGatewayOrder).where(
        SandboxGatewayOrder.gateway == gateway, SandboxGatewayOrder.merchant_ref == ref
    )
    return (await session.execute(query)).scalar_one_or_none()


def _callback(settings: Settings, order: SandboxGatewayOrder) -> tuple[bytes, dict[str, str]]:
    """The signed callback body and headers, in the gateway's own format."""
    assert order.txn_id is not None
    if order.gateway == "WW":
        body = json.dumps(
            {
                "event": "PAYMENT_SUCCESS",
                "orderId": order.order_id,
                "merchantRef": order.merchant_ref,
                "txnId": order.txn_id,
                "amount": minor_to_major_text(order.amount),
                "currency": order.currency,
                "paidAt": (order.paid_at or utcnow()).isoformat(),
            }
        ).encode()
        return body, {
            "Content-Type": "application/json",
            ww.HEADER: ww.sign(settings.gateway_ww_secret, body),
        }
    if order.gateway == "PAYTIMZ":
        fields = paytimz.signed(
            settings.gateway_paytimz_secret,
            {
                "trade_no": order.order_id,
                "out_trade_no": order.merchant_ref,
                "total_fee": str(order.amount),
                "trade_status": "SUCCESS",
                "transaction_id": order.txn_id,
            },
        )
        return urlencode(fields).encode(), {"Content-Type": "application/x-www-form-urlencoded"}
    body = json.dumps(
        {
            "type": "charge.paid",
            "data": {
                "id": order.order_id,
                "reference": order.merchant_ref,
                "amount": order.amount,
                "currency": order.currency,
                "transaction": order.txn_id,
            },
        }
    ).encode()
    return body, {
        "Content-Type": "application/json",
        payonex.HEADER: payonex.header_value(settings.gateway_payonex_secret, body),
    }


async def _send_callback(request: Request, order: SandboxGatewayOrder) -> int:
    body, headers = _callback(_settings(request), order)
    try:
        response = await request.app.state.http.post(
            order.notify_url, content=body, headers=headers
        )
    except Exception:  # the sandbox reports a failed delivery; Pao's reconciler recovers
        return 0
    status: int = response.status_code
    return status


class PayIn(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    callback: Literal["normal", "drop", "twice"] = "normal"


class PayByPayloadIn(PayIn):
    payload: str = Field(min_length=1, max_length=512)


def _view(order: SandboxGatewayOrder, callbacks: list[int]) -> dict[str, Any]:
    return {
        "gateway": order.gateway,
        "orderId": order.order_id,
        "merchantRef": order.merchant_ref,
        "amount": minor_to_major_text(order.amount),
        "currency": order.currency,
        "status": order.status,
        "txnId": order.txn_id,
        "callbacks": callbacks,
    }


async def _pay(
    request: Request, session: AsyncSession, order: SandboxGatewayOrder, mode: str
) -> Response:
    if order.status != "PAID":
        order.status = "PAID"
        order.txn_id = "T" + secrets.token_hex(10).upper()
        order.paid_at = utcnow()
    # Commit before calling Pao: no sandbox transaction stays open across the callback.
    await session.commit()
    callbacks: list[int] = []
    for _ in range({"normal": 1, "drop": 0, "twice": 2}[mode]):
        callbacks.append(await _send_callback(request, order))
    return JSONResponse(_view(order, callbacks))


async def _by_order_id(
    session: AsyncSession, code: str, order_id: str
) -> SandboxGatewayOrder | None:
    query = select(SandboxGatewayOrder).where(
        SandboxGatewayOrder.gateway == code.upper(), SandboxGatewayOrder.order_id == order_id
    )
    return (await session.execute(query)).scalar_one_or_none()


def _not_found() -> JSONResponse:
    return JSONResponse({"message": "NO_DATA"}, status_code=404)


@router.post("/sandbox/gateways/pay", **OPTS)
async def pay_by_payload(
    body: PayByPayloadIn, request: Request, session: SandboxSessionDep
) -> Response:
    query = select(SandboxGatewayOrder).where(SandboxGatewayOrder.payload == body.payload.strip())
    order = (await session.execute(query)).scalar_one_or_none()
    if order is None:
        return _not_found()
    return await _pay(request, session, order, body.callback)


@router.post("/sandbox/gateways/{code}/orders/{order_id}/pay", **OPTS)
async def pay_order(
    code: str,
    order_id: str,
    request: Request,
    session: SandboxSessionDep,
    body: PayIn | None = None,
) -> Response:
    order = await _by_order_id(session, code, order_id)
    if order is None:
        return _not_found()
    return await _pay(request, session, order, (body or PayIn()).callback)


@router.post("/sandbox/gateways/{code}/orders/{order_id}/callback", **OPTS)
async def resend_callback(
    code: str, order_id: str, request: Request, session: SandboxSessionDep
) -> Response:
    order = await _by_order_id(session, code, order_id)
    if order is None or order.status != "PAID":
        return _not_found()
    await session.commit()
    return JSONResponse(_view(order, [await _send_callback(request, order)]))


@router.get("/sandbox/gateways/{code}/orders/{order_id}", **OPTS)
async def show_order(code: str, order_id: str, session: SandboxSessionDep) -> Response:
    order = await _by_order_id(session, code, order_id)
    if order is None:
        return _not_found()
    return JSONResponse(_view(order, []))
