"""The sandbox's ThaiBulkSMS (providers.md §5): its SMS API in its own wire format, delivering
into the sandbox SMS outbox (:mod:`pao.sandbox.sms`) where people and tests read the codes.

* ``POST /sandbox/thaibulksms/sms`` (HTTP Basic key:secret; form or JSON ``msisdn``,
  ``message``, ``sender``) → 201 ``{remaining_credit, total_use_credit, credit_type,
  phone_number_list, bad_phone_number_list}``; a number that is not 9-15 digits goes to
  ``bad_phone_number_list`` (not sent);
* ``GET /sandbox/thaibulksms/credit`` → ``{remaining_credit}``;
* ``POST /sandbox/thaibulksms/controls`` ``{"credit": n | null}``: the credit left (null:
  unlimited); at 0 a send answers 400 ``{"error": {"code", "name", "description"}}``.

ThaiBulkSMS's error codes are not documented (UNCONFIRMED): the sandbox's (4xx) are its own.
"""

from __future__ import annotations

import base64
import re
import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy import Integer
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.settings import Settings
from pao.sandbox import sms
from pao.sandbox.store import SandboxBase, SandboxSessionDep

router = APIRouter(prefix="/sandbox/thaibulksms", include_in_schema=False)

_MSISDN = re.compile(r"\+?[0-9]{9,15}")


class ThaiBulkSmsAccount(SandboxBase):
    """The one sandbox account's credit (no row, or ``credit`` None: unlimited)."""

    __tablename__ = "sandbox_thaibulksms_account"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    credit: Mapped[int | None] = mapped_column(Integer)


def _error(status: int, code: int, name: str, description: str) -> JSONResponse:
    body = {"error": {"code": code, "name": name, "description": description}}
    return JSONResponse(body, status_code=status)


def _authorised(request: Request) -> bool:
    settings: Settings = request.app.state.settings
    pair = (
        f"{settings.thaibulksms_api_key.get_secret_value()}:"
        f"{settings.thaibulksms_api_secret.get_secret_value()}"
    )
    expected = "Basic " + base64.b64encode(pair.encode()).decode()
    return secrets.compare_digest(request.headers.get("authorization", ""), expected)


async def fields_of(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            body = await request.json()
        except ValueError:
            return {}
        return body if isinstance(body, dict) else {}
    form = await request.form()
    return {key: value for key, value in form.items() if isinstance(value, str)}


@router.post("/sms")
async def send(request: Request, session: SandboxSessionDep) -> JSONResponse:
    if not _authorised(request):
        return _error(401, 401, "UNAUTHORIZED", "Invalid API key or secret (sandbox)")
    fields = await fields_of(request)
    msisdn, message = str(fields.get("msisdn") or ""), str(fields.get("message") or "")
    if not msisdn or not message:
        return _error(400, 400, "BAD_REQUEST", "msisdn and message are required (sandbox)")
    account = await session.get(ThaiBulkSmsAccount, 1)
    if account is not None and account.credit is not None and account.credit <= 0:
        return _error(400, 4020, "NOT_ENOUGH_CREDIT", "Credit is not enough (sandbox)")
    sent: list[dict[str, Any]] = []
    bad: list[dict[str, Any]] = []
    for number in (n.strip() for n in msisdn.split(",") if n.strip()):
        if not _MSISDN.fullmatch(number):
            bad.append({"number": number, "message": "Invalid phone number"})
            continue
        sender = str(fields.get("sender") or "") or None
        await sms.deliver(session, phone=number, text=message[:1000], sender=sender)
        sent.append({"number": number, "message_id": secrets.token_urlsafe(16), "used_credit": 1})
    if account is not None and account.credit is not None:
        account.credit -= len(sent)
    await session.commit()
    remaining = account.credit if account is not None and account.credit is not None else 999_999
    body = {
        "remaining_credit": remaining,
        "total_use_credit": len(sent),
        "credit_type": "standard",
        "phone_number_list": sent,
        "bad_phone_number_list": bad,
    }
    return JSONResponse(body, status_code=201)


@router.get("/credit")
async def credit(request: Request, session: SandboxSessionDep) -> JSONResponse:
    if not _authorised(request):
        return _error(401, 401, "UNAUTHORIZED", "Invalid API key or secret (sandbox)")
    account = await session.get(ThaiBulkSmsAccount, 1)
    left = account.credit if account is not None and account.credit is not None else 999_999
    return JSONResponse({"remaining_credit": left})


@router.post("/controls")
async def controls(request: Request, session: SandboxSessionDep) -> JSONResponse:
    body = await request.json()
    value = body.get("credit") if isinstance(body, dict) else None
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        return JSONResponse({"code": "BAD_CREDIT"}, status_code=400)
    account = await session.get(ThaiBulkSmsAccount, 1)
    if account is None:
        account = ThaiBulkSmsAccount(id=1)
        session.add(account)
    account.credit = value
    await session.commit()
    return JSONResponse({"code": "OK"})
