"""What the slip providers' adapters share: the HTTP call counted in the metrics, and the
readings of amounts, bank codes and Bangkok dates their answers use."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime, time, timedelta, timezone
from decimal import Decimal, InvalidOperation
from typing import Any

import httpx
import structlog

from pao.core import metrics
from pao.payments.qr.payer import bank_code
from pao.payments.slips.port import CURRENCY_BY_NUMBER, VerifierUnavailable, to_minor

log = structlog.get_logger(__name__)

BANGKOK = timezone(timedelta(hours=7))


async def call(
    provider: str, operation: str, send: Callable[[], Awaitable[httpx.Response]]
) -> httpx.Response:
    """One call to a provider, timed and counted; unreachable → :class:`VerifierUnavailable`.
    Only the exception's class is logged: its text may hold a URL with a branch id."""
    with metrics.provider_call(provider, operation) as counted:
        try:
            response = await send()
        except httpx.HTTPError as exc:
            counted.failed(exc)
            log.warning("slip provider unreachable", provider=provider, error=type(exc).__name__)
            raise VerifierUnavailable(f"{provider} unreachable") from exc
        counted.answered(response.status_code)
    return response


def json_body(response: httpx.Response) -> dict[str, Any] | None:
    """The answer as a JSON object (numbers as Decimal, never float), or None."""
    try:
        body = json.loads(response.content, parse_float=Decimal)
    except (ValueError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def amount_minor(value: Any) -> int:
    """A baht amount (JSON number or string) → satang; ValueError when it is not one."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
        raise ValueError("amount missing")
    try:
        return to_minor(Decimal(str(value).strip()))
    except InvalidOperation as exc:
        raise ValueError("bad amount") from exc


def currency_of(number: Any) -> str:
    """ISO 4217 numeric ("764") → code; absent → THB (Thai slip services verify Thai interbank
    transfers in baht; ADR 0026); unknown → ValueError."""
    if number is None or number == "":
        return "THB"
    code = CURRENCY_BY_NUMBER.get(str(number).strip())
    if code is None:
        raise ValueError(f"unknown currency {number!r}")
    return code


def pao_bank(code: Any) -> str:
    """A provider's bank code (3-digit clearing code or a short name) as Pao names banks."""
    text = str(code or "").strip()
    return bank_code(text) or text.upper()


def bangkok_datetime(date_text: Any, time_text: Any) -> datetime:
    """``yyyyMMdd`` or ``yyyy-MM-dd`` with ``HH:mm:ss``, on Bangkok time."""
    date_digits = str(date_text or "").replace("-", "")
    # Read as Bangkok's calendar day: a date alone names no instant.
    day = datetime.strptime(date_digits + "+0700", "%Y%m%d%z").date()
    clock = time.fromisoformat(str(time_text or ""))
    return datetime.combine(day, clock, tzinfo=BANGKOK)


def aware(text: Any) -> datetime:
    """An ISO 8601 instant that names its offset (``Z`` allowed); a naive one is refused."""
    value = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if value.tzinfo is None:
        raise ValueError("naive timestamp")
    return value
