"""HTTP faces of the sandbox's slip checkers, each in its provider's wire format
(providers.md §4, §6), mounted only when ``PAO_SANDBOX=1``; credentials are the app's
settings (the sandbox fills in well-known ones).

* SlipOK   ``POST /sandbox/slipok/api/line/apikey/{branch}`` (``x-authorization``) and its
           ``GET .../{branch}/quota``;
* EasySlip ``POST /sandbox/easyslip/v2/verify/bank`` (``Authorization: Bearer``) and
           ``GET /sandbox/easyslip/v2/info``;
* SCB      ``POST /sandbox/scb/partners/v1/oauth/token`` and
           ``GET /sandbox/scb/partners/v1/payment/billpayment/transactions/{transRef}``;
* control  ``POST /sandbox/slipcheck/controls`` {provider, tooNewSeconds, quotaExhausted,
           receiverAccounts} and ``GET /sandbox/slipcheck/scb/tokens`` (how
           many SCB tokens were given out).

Where a provider documents no answer for a case (EasySlip's "too new", every SCB error), the
sandbox answers with the nearest documented one or, for SCB, codes of its own (>= 4000)
that the adapter must treat as unknown, as it would SCB's.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import ConfigDict, Field
from sqlalchemy import func, select

from pao.core.params import RequestModel
from pao.core.settings import Settings
from pao.kit.clock import utcnow
from pao.sandbox.bank.models import BankTransfer
from pao.sandbox.bank.service import CLEARING_CODES
from pao.sandbox.slipcheck import service
from pao.sandbox.slipcheck.models import ScbToken
from pao.sandbox.slipcheck.service import Finding, mask
from pao.sandbox.store import SandboxSessionDep

router = APIRouter(include_in_schema=False)

BANGKOK = timedelta(hours=7)
TOKEN_SECONDS = 1800


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _major(minor: int) -> float:
    return minor / 100


def _party(bank: str, account: str, name: str) -> dict[str, Any]:
    return {
        "displayName": name,
        "name": name,
        "proxy": {"type": None, "value": None},
        "account": {"type": "BANKAC", "value": mask(account)},
    }


def _slipok_data(t: BankTransfer) -> dict[str, Any]:
    local = t.created_at + BANGKOK
    return {
        "success": True,
        "message": "✅",
        "rqUID": secrets.token_hex(8),
        "language": "TH",
        "transRef": t.reference,
        "sendingBank": t.sending_bank,
        "receivingBank": CLEARING_CODES.get(t.to_bank, ""),
        "transDate": local.strftime("%Y%m%d"),
        "transTime": local.strftime("%H:%M:%S"),
        "transTimestamp": t.created_at.isoformat().replace("+00:00", "Z"),
        "sender": _party(t.from_bank, t.from_account, t.from_name),
        "receiver": _party(t.to_bank, t.to_account, t.to_name),
        "amount": _major(t.amount),
        "paidLocalAmount": _major(t.amount),
        "paidLocalCurrency": "764",
        "countryCode": "TH",
        "transFeeAmount": 0,
        "ref1": "",
        "ref2": "",
        "ref3": "",
        "toMerchantId": "",
    }


def _slipok(code: int, message: str, status: int = 400, **extra: Any) -> JSONResponse:
    return JSONResponse({"code": code, "message": message, **extra}, status_code=status)


@router.post("/sandbox/slipok/api/line/apikey/{branch}")
async def slipok_check(branch: str, request: Request, session: SandboxSessionDep) -> JSONResponse:
    settings = _settings(request)
    if branch != settings.slipok_branch_id:
        return _slipok(1001, "ไม่พบสาขา")
    key = request.headers.get("x-authorization", "")
    if not secrets.compare_digest(key, settings.slipok_api_key.get_secret_value()):
        return _slipok(1002, "Authorization Header ไม่ถูกต้อง", 401)
    try:
        body = await request.json()
    except ValueError:
        body = None
    payload = body.get("data") if isinstance(body, dict) else None
    if not isinstance(payload, str) or not payload:
        return _slipok(1000, "กรุณาใส่ข้อมูล QR Code ให้ครบในช่อง data, files หรือ url")
    fields = service.qr_fields(payload)
    if fields is None:
        return _slipok(1008, "QR Code ไม่ใช่ QR สำหรับตรวจสอบการชำระเงิน")
    remember = body.get("log") is True if isinstance(body, dict) else False
    checked = await service.check(
        session,
        "slipok",
        sending_bank=fields[0],
        reference=fields[1],
        remember=remember,
        receiver_check=remember,
    )
    await session.commit()
    t = checked.transfer
    match checked.finding:
        case Finding.QUOTA:
            return _slipok(1004, "Quota ของคุณหมดแล้ว")
        case Finding.NOT_FOUND:
            return _slipok(1011, "QR Code หมดอายุ หรือ ไม่มีรายการอยู่จริง")
        case Finding.TOO_NEW:
            assert t is not None
            data = {"bankCode": t.sending_bank, "bankName": t.from_bank, "delay": 2}
            return _slipok(1010, "กรุณารอการตรวจสอบสลิปอีกครั้ง", data=data)
        case Finding.DUPLICATE:
            assert t is not None
            return _slipok(1012, "สลิปซ้ำ สลิปนี้เคยส่งเข้ามาในระบบแล้ว", data=_slipok_data(t))
        case Finding.RECEIVER:
            return _slipok(1014, "บัญชีผู้รับไม่ตรงกับบัญชีหลักของร้าน")
    assert t is not None
    return JSONResponse({"success": True, "data": _slipok_data(t)})


def _easyslip_party(bank: str, account: str, name: str) -> dict[str, Any]:
    return {
        "bank": {"id": CLEARING_CODES.get(bank, ""), "name": bank, "short": bank},
        "account": {
            "name": {"th": name, "en": name},
            "bank": {"type": "BANKAC", "account": mask(account)},
        },
    }


def _easyslip_raw(t: BankTransfer, payload: str) -> dict[str, Any]:
    return {
        "payload": payload,
        "transRef": t.reference,
        "date": (t.created_at + BANGKOK).replace(tzinfo=None).isoformat() + "+07:00",
        "countryCode": "TH",
        "amount": {"amount": _major(t.amount), "local": {"amount": 0, "currency": ""}},
        "fee": 0,
        "sender": _easyslip_party(t.from_bank, t.from_account, t.from_name),
        "receiver": _easyslip_party(t.to_bank, t.to_account, t.to_name),
    }


def _easyslip_error(code: str, status: int, message: str) -> JSONResponse:
    return JSONResponse(
        {"success": False, "error": {"code": code, "message": message}}, status_code=status
    )


@router.get("/sandbox/slipok/api/line/apikey/{branch}/quota")
async def slipok_quota(branch: str, request: Request, session: SandboxSessionDep) -> JSONResponse:
    """SlipOK's quota call (providers.md §4b [S2]): what ``pao ops providers check`` asks."""
    settings = _settings(request)
    if branch != settings.slipok_branch_id:
        return _slipok(1001, "ไม่พบสาขา")
    key = request.headers.get("x-authorization", "")
    if not secrets.compare_digest(key, settings.slipok_api_key.get_secret_value()):
        return _slipok(1002, "Authorization Header ไม่ถูกต้อง", 401)
    control = await service.control_of(session, "slipok")
    left = 0 if control.quota_exhausted else 1000
    data = {
        "quota": left,
        "overQuota": 0,
        "specialQuota": 0,
        "endDate": "2099-12-31",
        "specialEndDate": None,
    }
    return JSONResponse({"success": True, "data": data})


@router.get("/sandbox/easyslip/v2/info")
async def easyslip_info(request: Request) -> JSONResponse:
    """EasySlip v2 ``GET /info`` (its fields are not documented: the sandbox's are its own)."""
    settings = _settings(request)
    header = request.headers.get("authorization", "")
    if not header:
        return _easyslip_error("MISSING_API_KEY", 401, "API key is required")
    expected = f"Bearer {settings.easyslip_api_key.get_secret_value()}"
    if not secrets.compare_digest(header, expected):
        return _easyslip_error("INVALID_API_KEY", 401, "Invalid API key")
    data = {"application": {"name": "Pao sandbox"}, "quota": {"used": 0, "max": 1000}}
    return JSONResponse({"success": True, "message": "OK", "data": data})


@router.post("/sandbox/easyslip/v2/verify/bank")
async def easyslip_check(request: Request, session: SandboxSessionDep) -> JSONResponse:
    settings = _settings(request)
    header = request.headers.get("authorization", "")
    if not header:
        return _easyslip_error("MISSING_API_KEY", 401, "API key is required")
    expected = f"Bearer {settings.easyslip_api_key.get_secret_value()}"
    if not secrets.compare_digest(header, expected):
        return _easyslip_error("INVALID_API_KEY", 401, "Invalid API key")
    try:
        body = await request.json()
    except ValueError:
        body = None
    payload = body.get("payload") if isinstance(body, dict) else None
    if not isinstance(payload, str) or not 1 <= len(payload) <= 128:
        return _easyslip_error("VALIDATION_ERROR", 400, "payload must be 1-128 characters")
    fields = service.qr_fields(payload)
    if fields is None:
        return _easyslip_error("SLIP_NOT_FOUND", 404, "Slip not found")
    remember = isinstance(body, dict) and body.get("checkDuplicate") is True
    checked = await service.check(
        session, "easyslip", sending_bank=fields[0], reference=fields[1], remember=remember
    )
    await session.commit()
    t = checked.transfer
    match checked.finding:
        case Finding.QUOTA:
            return _easyslip_error("QUOTA_EXCEEDED", 403, "Quota exceeded")
        case Finding.NOT_FOUND:
            return _easyslip_error("SLIP_NOT_FOUND", 404, "Slip not found")
        case Finding.TOO_NEW:
            return _easyslip_error("API_SERVER_ERROR", 500, "Bank API error, retry later")
    assert t is not None
    data = {
        "isDuplicate": checked.finding == Finding.DUPLICATE,
        "matchedAccount": None,
        "amountInSlip": _major(t.amount),
        "rawSlip": _easyslip_raw(t, payload),
    }
    return JSONResponse({"success": True, "message": "Verified", "data": data})


def _scb(code: int, description: str, status: int, data: Any = None) -> JSONResponse:
    body = {"status": {"code": code, "description": description}, "data": data}
    return JSONResponse(body, status_code=status)


@router.post("/sandbox/scb/partners/v1/oauth/token")
async def scb_token(request: Request, session: SandboxSessionDep) -> JSONResponse:
    settings = _settings(request)
    key = settings.scb_api_key.get_secret_value()
    secret = settings.scb_api_secret.get_secret_value()
    try:
        body = await request.json()
    except ValueError:
        body = None
    given = body if isinstance(body, dict) else {}
    if (
        not request.headers.get("requestUId")
        or request.headers.get("resourceOwnerId") != key
        or given.get("applicationKey") != key
        or not secrets.compare_digest(str(given.get("applicationSecret") or ""), secret)
    ):
        return _scb(4011, "Unauthorized (sandbox)", 401)
    now = utcnow()
    token = ScbToken(token=secrets.token_hex(16), expires_at=now + timedelta(seconds=TOKEN_SECONDS))
    session.add(token)
    await session.commit()
    data = {
        "accessToken": token.token,
        "tokenType": "Bearer",
        "expiresIn": TOKEN_SECONDS,
        "expiresAt": int(token.expires_at.timestamp()),
    }
    return _scb(1000, "Success", 200, data)


def _scb_party(bank: str, account: str, name: str) -> dict[str, Any]:
    return {
        "displayName": name,
        "name": name,
        "proxy": {"type": "", "value": ""},
        "account": {"type": "BANKAC", "value": mask(account)},
    }


@router.get("/sandbox/scb/partners/v1/payment/billpayment/transactions/{reference}")
async def scb_slip(reference: str, request: Request, session: SandboxSessionDep) -> JSONResponse:
    auth = request.headers.get("authorization", "")
    held = await session.get(ScbToken, auth.removeprefix("Bearer ").strip()) if auth else None
    if held is None or held.expires_at <= utcnow():
        return _scb(4011, "Unauthorized (sandbox)", 401)
    if request.headers.get("resourceOwnerId") != _settings(request).scb_api_key.get_secret_value():
        return _scb(4011, "Unauthorized (sandbox)", 401)
    sending_bank = request.query_params.get("sendingBank", "")
    checked = await service.check(
        session, "scb", sending_bank=sending_bank, reference=reference, remember=False
    )
    t = checked.transfer
    match checked.finding:
        case Finding.QUOTA:
            return _scb(4290, "Too many requests (sandbox)", 429)
        case Finding.NOT_FOUND:
            return _scb(4101, "Transaction not found (sandbox)", 404)
        case Finding.TOO_NEW:
            return _scb(5030, "Transaction not available yet (sandbox)", 503)
    assert t is not None
    local = t.created_at + BANGKOK
    data = {
        "transRef": t.reference,
        "sendingBank": t.sending_bank,
        "receivingBank": CLEARING_CODES.get(t.to_bank, ""),
        "transDate": local.strftime("%Y-%m-%d"),
        "transTime": local.strftime("%H:%M:%S"),
        "sender": _scb_party(t.from_bank, t.from_account, t.from_name),
        "receiver": _scb_party(t.to_bank, t.to_account, t.to_name),
        "amount": f"{t.amount / 100:.2f}",
        "paidLocalAmount": f"{t.amount / 100:.2f}",
        "paidLocalCurrency": "764",
        "countryCode": "TH",
        "ref1": "",
        "ref2": "",
        "ref3": "",
    }
    return _scb(1000, "Success", 200, data)


class ControlIn(RequestModel):
    model_config = ConfigDict(populate_by_name=True)

    provider: str = Field(pattern="^(slipok|easyslip|scb)$")
    too_new_seconds: int = Field(default=0, alias="tooNewSeconds", ge=0, le=86_400)
    quota_exhausted: bool = Field(default=False, alias="quotaExhausted")
    receiver_accounts: list[str] = Field(
        default_factory=list, alias="receiverAccounts", max_length=20
    )


@router.post("/sandbox/slipcheck/controls")
async def controls(body: ControlIn, session: SandboxSessionDep) -> JSONResponse:
    await service.set_control(
        session,
        body.provider,
        too_new_seconds=body.too_new_seconds,
        quota_exhausted=body.quota_exhausted,
        receiver_accounts=body.receiver_accounts,
    )
    await session.commit()
    return JSONResponse({"code": "OK"})


@router.get("/sandbox/slipcheck/scb/tokens")
async def scb_tokens_given(session: SandboxSessionDep) -> JSONResponse:
    count = await session.scalar(select(func.count()).select_from(ScbToken))
    return JSONResponse({"tokens": int(count or 0)})
