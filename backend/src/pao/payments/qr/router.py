"""HTTP routes of QR deposits: the member's QR per channel, and the signed notifications of
the bank (KBANK / Lao QR) and of the gateways."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from pao.core.errors import BadRequest, Unprocessable
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.settings import Settings
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.kit.clock import utcnow
from pao.kit.idempotency import IdempotencyKeyHeader, replayed_answer, run_idempotent
from pao.kit.money import Currency
from pao.payments.accounts import ReceivingAccount, ReceivingKind
from pao.payments.gateways.base import GatewayError, InvalidSignature
from pao.payments.gateways.registry import adapter_for
from pao.payments.qr import scb, scb_flow, service
from pao.payments.qr.exceptions import BadSignature, QrFail, QrNotFound
from pao.payments.qr.models import QrDeposit, QrStatus
from pao.payments.qr.render import qr_svg
from pao.payments.qr.schemas import BankNotifyIn, PaymentAck, QrCreate, QrProgress, QrState
from pao.payments.scb.qrpay import ScbQrUnavailable
from pao.protection.service import ensure_may_deposit
from pao.site.settings import SiteSettings, load_site_settings

router = APIRouter(route_class=UnitOfWorkRoute)
TAGS: list[Any] = ["qrcode"]
NO_QR = QrState(has_qrcode=False)


def state_of(qr: QrDeposit | None) -> QrState:
    if qr is None or not service.is_open(qr, utcnow()):
        return NO_QR
    return QrState(
        qrcode_id=str(qr.id),
        has_qrcode=True,
        qrcode=qr_svg(qr.payload),
        payload=qr.payload,
        amount=qr.amount,
        expire_in=int(qr.expires_at.timestamp() * 1000),
    )


@router.get(
    "/api/qrcode/{bankCode}",
    operation_id="getQrcode",
    tags=TAGS,
    response_model=QrState,
    responses=AUTH_ERRORS,
    summary="The member's current QR for a bank or gateway",
)
async def get_qrcode(bankCode: str, session: SessionDep, member: CurrentMember) -> QrState:
    qr = await service.current_qr(session, member_id=member.id, channel=bankCode)
    return state_of(qr)


@router.post(
    "/api/qrcode/{bankCode}",
    operation_id="createQrcode",
    tags=TAGS,
    response_model=QrState,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="QR_FAIL | TRANSFER_MINIMUM | DEPOSIT_LIMIT_REACHED | LOSS_LIMIT_REACHED",
            _403="PLAY_EXCLUDED",
            _409="IDEMPOTENCY_KEY_REUSED",
            _422="KEY_MISSING | KEY_INVALID",
        ),
    },
    summary="Create a single-use QR deposit",
    description="KBANK (AUTO) gets a dynamic PromptPay QR (a Lao QR for a LAK account) whose "
    "amount may carry extra satang (kip) so that it is unique: pay exactly `amount`; with "
    "PAO_BANK_API=scb a baht account gets SCB's bill payment QR for the amount asked. Gateways "
    "(WW, PAYTIMZ, PAYONEX) get their order's QR. Minimums: KBANK 1, WW 100, PAYTIMZ 10 (site "
    "setting paytimzMinimum), PAYONEX 100 → TRANSFER_MINIMUM with `minimum`. Other QRs of the "
    "member become stale (no longer shown; still credited if paid).",
)
async def create_qrcode(
    bankCode: str,
    body: QrCreate,
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    await ensure_may_deposit(session, member, body.amount, channel="qr")
    site = await load_site_settings(session)
    account = await service.qr_account(session, code=bankCode)
    owner, operation = f"member:{member.id}", f"qrcode:{account.code}"
    payload = {"amount": body.amount}

    settings: Settings = request.app.state.settings
    scb_made = settings.bank_api == "scb" and account.currency == Currency.THB
    if account.kind != ReceivingKind.GATEWAY and scb_made:
        return await _create_scb(
            request, session, member, account, body.amount, site, idempotency_key
        )
    if account.kind != ReceivingKind.GATEWAY:

        async def create_bank() -> QrState:
            qr = await service.create_bank_qr(
                session, member=member, account=account, amount=body.amount, site=site
            )
            return state_of(qr)

        answer = await run_idempotent(
            session, owner=owner, key=idempotency_key, operation=operation,
            payload=payload, action=create_bank,
        )  # fmt: skip
        return JSONResponse(answer)

    service.check_amount(account.code, body.amount, site, member.currency)
    replay = await replayed_answer(
        session, owner=owner, key=idempotency_key, operation=operation, payload=payload
    )
    if replay is not None:
        return JSONResponse(replay)
    adapter = adapter_for(settings, account.code)
    if adapter is None:
        raise QrFail(reason="no adapter")
    # The same intent (key) always names the same gateway order, so a retried or
    # double-clicked create cannot open two orders at the gateway.
    order_ref = _order_ref(owner, operation, idempotency_key, 24)
    expires_at = utcnow() + timedelta(minutes=site.qr_expire_minutes)
    # No transaction stays open across the gateway call (SQLite has one writer). A crash
    # after the call leaves an order nobody saw; its payment, if any, is kept UNMATCHED.
    await session.commit()
    try:
        order = await adapter.create_order(
            request.app.state.http,
            order_ref=order_ref,
            amount=body.amount,
            currency=Currency(member.currency),
            expires_at=expires_at,
            notify_url=f"{settings.base_url}/api/payments/gateways/{account.code}/callback",
        )
    except GatewayError as exc:
        raise QrFail(reason=str(exc)[:200]) from None

    async def store() -> QrState:
        qr = await service.store_gateway_qr(
            session, member=member, account=account, amount=body.amount,
            order_ref=order_ref, order=order, expires_at=expires_at,
        )  # fmt: skip
        return state_of(qr)

    answer = await run_idempotent(
        session, owner=owner, key=idempotency_key, operation=operation,
        payload=payload, action=store,
    )  # fmt: skip
    # Already JSON (major units): returned as is, not re-validated by the response model.
    return JSONResponse(answer)


def _order_ref(owner: str, operation: str, key: str | None, digits: int) -> str:
    """The order's reference: derived from the intent (key), so that a retried or
    double-clicked create names the same order at the gateway or SCB."""
    if not key:
        return ("Q" + secrets.token_hex(digits // 2)).upper()
    return (
        "Q" + hashlib.sha256(f"{owner}:{operation}:{key}".encode()).hexdigest()[:digits]
    ).upper()


async def _create_scb(
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    account: ReceivingAccount,
    amount: int,
    site: SiteSettings,
    idempotency_key: str | None,
) -> JSONResponse:
    """A bank QR made by SCB's QR create v2 (PAO_BANK_API=scb; ADR 0029): ref1 is the
    order's reference (at most 20 of [A-Z0-9]), the expiry Pao's own."""
    service.check_amount(account.code, amount, site, member.currency)
    owner, operation = f"member:{member.id}", f"qrcode:{account.code}"
    payload = {"amount": amount}
    replay = await replayed_answer(
        session, owner=owner, key=idempotency_key, operation=operation, payload=payload
    )
    if replay is not None:
        return JSONResponse(replay)
    order_ref = _order_ref(owner, operation, idempotency_key, 18)
    expires_at = utcnow() + timedelta(minutes=site.qr_expire_minutes)
    # No transaction stays open across SCB's call (as for a gateway order).
    await session.commit()
    try:
        raw = await scb_flow.scb_api(request.app.state).create_qr(
            ref1=order_ref, amount=amount, expires_at=expires_at
        )
    except ScbQrUnavailable as exc:
        raise QrFail(reason=str(exc)[:200]) from None

    async def store() -> QrState:
        qr = await scb.store_qr(
            session, member=member, account=account, amount=amount,
            order_ref=order_ref, payload=raw, expires_at=expires_at,
        )  # fmt: skip
        return state_of(qr)

    answer = await run_idempotent(
        session, owner=owner, key=idempotency_key, operation=operation,
        payload=payload, action=store,
    )  # fmt: skip
    return JSONResponse(answer)


@router.get(
    "/api/qrcode/status/{qrcodeId}",
    operation_id="getQrcodeStatus",
    tags=TAGS,
    response_model=QrProgress,
    responses={**AUTH_ERRORS, **errors(_404="NO_DATA")},
    summary="Where one of the member's QRs stands (asked every few seconds while it is shown)",
    description="The app polls this while a QR is on screen, so that a paid QR turns into a "
    "success (and is not offered for cancelling: that answers 409 QR_FAIL).",
)
async def get_qrcode_status(
    qrcodeId: str, session: SessionDep, member: CurrentMember
) -> QrProgress:
    if not qrcodeId.isdigit() or len(qrcodeId) > 18:
        raise QrNotFound()
    qr = await service.member_qr(session, member=member, qr_id=int(qrcodeId))
    status = QrStatus(qr.status)
    if status == QrStatus.PENDING and qr.expires_at <= utcnow():
        status = QrStatus.EXPIRED  # not yet swept, but no longer payable as offered
    return QrProgress(
        qrcode_id=str(qr.id),
        status=status.value,
        paid=status in (QrStatus.PAID, QrStatus.PAID_LATE),
    )


@router.delete(
    "/api/qrcode/{qrcodeId}",
    operation_id="cancelQrcode",
    tags=TAGS,
    response_model=QrState,
    responses={**AUTH_ERRORS, **errors(_404="NO_DATA", _409="QR_FAIL")},
    summary="Cancel the member's QR (a late payment is still credited)",
)
async def cancel_qrcode(qrcodeId: str, session: SessionDep, member: CurrentMember) -> QrState:
    if not qrcodeId.isdigit() or len(qrcodeId) > 18:
        raise QrNotFound()
    await service.cancel_qr(session, member=member, qr_id=int(qrcodeId))
    return NO_QR


@router.post(
    "/api/payments/bank/notify",
    operation_id="bankNotify",
    tags=["payments"],
    response_model=PaymentAck,
    # 410: a terminated site closes every /api call, these too (pao.site.termination).
    responses=errors(_401="UNAUTHORIZED", _410="gone", _422="KEY_MISSING | KEY_INVALID"),
    summary="The bank's incoming-transfer notification (server to server)",
    description="Body {transferId, amount (major units), currency, receiverProxy, qrPayload, "
    "paidAt, payerBank?, payerAccount?, payerName?}; "
    "header X-Bank-Signature = hex(HMAC-SHA256(bank webhook secret, raw body)). "
    "Deduplicated by transferId; credits the matched QR's member once.",
)
async def bank_notify(
    request: Request,
    session: SessionDep,
    x_bank_signature: str = Header(default="", alias="X-Bank-Signature"),
) -> PaymentAck:
    raw = await request.body()
    secret: str = request.app.state.settings.bank_webhook_secret
    expected = hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(x_bank_signature.strip().lower().encode(), expected.encode()):
        raise BadSignature()
    try:
        note = BankNotifyIn.model_validate_json(raw)
    except ValidationError:
        raise Unprocessable("KEY_INVALID") from None
    if note.amount <= 0:
        raise Unprocessable("KEY_INVALID", field="amount")
    result = await service.handle_bank_notification(
        session,
        transfer_id=note.transfer_id,
        amount=note.amount,
        currency=note.currency,
        receiver_proxy=note.receiver_proxy,
        qr_payload=note.qr_payload,
        paid_at=note.paid_at,
        payer_bank=note.payer_bank,
        payer_account=note.payer_account,
        payer_name=note.payer_name,
    )
    return PaymentAck(outcome=result.notification.outcome, duplicate=result.duplicate)


@router.post(
    "/api/payments/gateways/{code}/callback",
    operation_id="gatewayCallback",
    tags=["payments"],
    response_model=PaymentAck,
    responses=errors(_400="KEY_INVALID", _401="UNAUTHORIZED", _404="NO_DATA", _410="gone"),
    summary="A gateway's signed payment callback (server to server)",
    description="Each gateway's own format and signature (see pao.payments.gateways). "
    "Deduplicated by the gateway's transaction id; credits the order's member once.",
)
async def gateway_callback(code: str, request: Request, session: SessionDep) -> PaymentAck:
    adapter = adapter_for(request.app.state.settings, code)
    if adapter is None:
        raise QrNotFound()
    raw = await request.body()
    try:
        payment = adapter.verify_callback(headers=dict(request.headers), body=raw)
    except InvalidSignature:
        raise BadSignature() from None
    except GatewayError:
        raise BadRequest("KEY_INVALID") from None
    row, duplicate = await service.record_gateway_payment(
        session, gateway=adapter.code, payment=payment, source="callback"
    )
    return PaymentAck(outcome=row.outcome, duplicate=duplicate)
