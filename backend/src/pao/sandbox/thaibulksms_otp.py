"""The sandbox's ThaiBulkSMS OTP API (providers.md §5): it makes the code, "texts" it into the
sandbox SMS outbox (:mod:`pao.sandbox.sms`, where people and tests read codes), and checks it.

* ``POST /sandbox/thaibulksms-otp/v2/otp/request`` JSON or form ``{key, secret, msisdn}`` →
  200 ``{status: "success", token, refno}``; the outbox gets
  ``"TBS Code: 123456 (Ref: AB12CD). Valid for 5 minutes."`` (the vendor's text, as its npm
  README shows it);
* ``POST /sandbox/thaibulksms-otp/v2/otp/verify`` ``{key, secret, token, pin}`` → 200
  ``{status: "success", message}`` for the right PIN of a live token (once: the token is then
  used up); 400 ``{"error": {code, name, description}}`` for a wrong PIN, an expired or used
  token, an unknown one; 401 for a wrong key/secret;
* ``POST /sandbox/thaibulksms-otp/controls`` ``{"fault": null | "error" | "garbage"}``: from
  then on both calls answer 500 (``error``) or a 200 HTML page (``garbage``, a proxy's); null
  heals it.

ThaiBulkSMS's verify body and error codes are UNCONFIRMED (ADR 0030): these are the sandbox's
own; Pao reads only "200 or not".
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy import Boolean, Float, Integer, String
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.settings import Settings
from pao.kit.clock import utcnow
from pao.sandbox import sms
from pao.sandbox.store import SandboxBase, SandboxSessionDep
from pao.sandbox.thaibulksms import fields_of

router = APIRouter(prefix="/sandbox/thaibulksms-otp", include_in_schema=False)

TTL = timedelta(minutes=5)
FAULTS = ("error", "garbage")
_REF_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class ThaiBulkSmsOtpCode(SandboxBase):
    __tablename__ = "sandbox_thaibulksms_otp"

    token: Mapped[str] = mapped_column(String(64), primary_key=True)
    msisdn: Mapped[str] = mapped_column(String(32))
    pin: Mapped[str] = mapped_column(String(8))
    refno: Mapped[str] = mapped_column(String(8))
    expires_at: Mapped[float] = mapped_column(Float)  # epoch seconds (the sandbox's own clock)
    used: Mapped[bool] = mapped_column(Boolean, default=False)


class ThaiBulkSmsOtpControls(SandboxBase):
    """The one row of fault switches (no row: healthy)."""

    __tablename__ = "sandbox_thaibulksms_otp_controls"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    fault: Mapped[str | None] = mapped_column(String(16))


def _error(status: int, code: int, name: str, description: str) -> JSONResponse:
    body = {"error": {"code": code, "name": name, "description": description}}
    return JSONResponse(body, status_code=status)


def _authorised(request: Request, fields: dict[str, Any]) -> bool:
    settings: Settings = request.app.state.settings
    key = settings.thaibulksms_otp_key.get_secret_value()
    secret = settings.thaibulksms_otp_secret.get_secret_value()
    return secrets.compare_digest(str(fields.get("key") or ""), key) and secrets.compare_digest(
        str(fields.get("secret") or ""), secret
    )


async def _fault(session: AsyncSession) -> Response | None:
    controls = await session.get(ThaiBulkSmsOtpControls, 1)
    if controls is None or controls.fault is None:
        return None
    if controls.fault == "garbage":
        return HTMLResponse("<html><body>502 Bad Gateway</body></html>", status_code=200)
    return _error(500, 500, "INTERNAL_SERVER_ERROR", "Something went wrong (sandbox)")


@router.post("/v2/otp/request")
async def request_otp(request: Request, session: SandboxSessionDep) -> Response:
    if (fault := await _fault(session)) is not None:
        return fault
    fields = await fields_of(request)
    if not _authorised(request, fields):
        return _error(401, 401, "UNAUTHORIZED", "Invalid key or secret (sandbox)")
    msisdn = str(fields.get("msisdn") or "")
    if not msisdn.isdigit() or not 9 <= len(msisdn) <= 15:
        return _error(400, 400, "INVALID_MSISDN", "msisdn is invalid (sandbox)")
    code = ThaiBulkSmsOtpCode(
        token=secrets.token_urlsafe(24),
        msisdn=msisdn,
        pin=f"{secrets.randbelow(10**6):06d}",
        # Letters first: the code is the text's only 6-digit word (testers grep for it).
        refno="".join(secrets.choice(_REF_ALPHABET[:24]) for _ in range(2))
        + "".join(secrets.choice(_REF_ALPHABET) for _ in range(4)),
        expires_at=(utcnow() + TTL).timestamp(),
        used=False,
    )
    session.add(code)
    minutes = int(TTL.total_seconds() // 60)
    text = f"TBS Code: {code.pin} (Ref: {code.refno}). Valid for {minutes} minutes."
    await sms.deliver(session, phone=msisdn, text=text, sender="TBS-OTP")
    await session.commit()
    return JSONResponse({"status": "success", "token": code.token, "refno": code.refno})


@router.post("/v2/otp/verify")
async def verify_otp(request: Request, session: SandboxSessionDep) -> Response:
    if (fault := await _fault(session)) is not None:
        return fault
    fields = await fields_of(request)
    if not _authorised(request, fields):
        return _error(401, 401, "UNAUTHORIZED", "Invalid key or secret (sandbox)")
    code = await session.get(ThaiBulkSmsOtpCode, str(fields.get("token") or ""))
    if code is None or code.used:
        return _error(400, 4041, "TOKEN_NOT_FOUND", "Token is invalid or used (sandbox)")
    if code.expires_at <= utcnow().timestamp():
        return _error(400, 4042, "TOKEN_EXPIRED", "Token is expired (sandbox)")
    if not secrets.compare_digest(str(fields.get("pin") or ""), code.pin):
        return _error(400, 4043, "PIN_INVALID", "Code is invalid (sandbox)")
    code.used = True
    await session.commit()
    return JSONResponse({"status": "success", "message": "Code is correct."})


@router.post("/controls")
async def controls(request: Request, session: SandboxSessionDep) -> JSONResponse:
    body = await request.json()
    fault = body.get("fault") if isinstance(body, dict) else None
    if fault is not None and fault not in FAULTS:
        return JSONResponse({"code": "BAD_FAULT"}, status_code=400)
    row = await session.get(ThaiBulkSmsOtpControls, 1)
    if row is None:
        row = ThaiBulkSmsOtpControls(id=1)
        session.add(row)
    row.fault = fault
    await session.commit()
    return JSONResponse({"code": "OK"})
