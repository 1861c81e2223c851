"""The SMS adapter: how OTP texts leave Pao.

:class:`SmsSender` is the port; ``PAO_SMS_PROVIDER`` picks the adapter (:func:`build_sms_sender`):
``pao``, :class:`HttpSmsSender`, posts ``{phone, text, sender}`` as JSON to ``settings.sms_url``
or, when that is unset, to this app's own sandbox outbox (``{base_url}/sandbox/sms``), so
development and tests run the real HTTP code path; ``thaibulksms`` speaks ThaiBulkSMS's API
(:mod:`pao.identity.sms_providers.thaibulksms`; the sandbox speaks it too).
Any transport error or non-2xx answer becomes ``OTP_SEND_FAIL`` (502).

The sender routes get (:data:`SmsSenderDep`) spends every SMS from the hourly budgets of
:mod:`pao.identity.sms_budget` first: being the one way an SMS leaves, it is where they hold.
With ``PAO_OTP_PROVIDER=thaibulksms`` registration codes leave through ThaiBulkSMS's OTP API
instead (:data:`OtpProviderDep`), spending from the same budgets first (ADR 0030).
"""

from __future__ import annotations

from typing import Annotated, Protocol

import httpx
import structlog
from fastapi import Depends, Request

from pao.core.settings import Settings
from pao.core.uow import SessionDep
from pao.identity.exceptions import OtpSendFail
from pao.identity.otp_provider import OtpProvider, ProviderOtp, Verdict
from pao.identity.sms_budget import SmsBudget, SmsLimits
from pao.identity.sms_providers.thaibulksms import ThaiBulkSmsSender
from pao.identity.sms_providers.thaibulksms_otp import ThaiBulkSmsOtp
from pao.site.settings import load_site_settings

log = structlog.get_logger(__name__)


class SmsSender(Protocol):
    async def send(self, *, phone: str, text: str) -> None: ...


def sms_endpoint(settings: Settings) -> str:
    return settings.sms_url or f"{settings.base_url}/sandbox/sms"


class HttpSmsSender:
    def __init__(self, http: httpx.AsyncClient, *, url: str, sender: str) -> None:
        self._http = http
        self._url = url
        self._sender = sender

    async def send(self, *, phone: str, text: str) -> None:
        payload = {"phone": phone, "text": text, "sender": self._sender}
        try:
            response = await self._http.post(self._url, json=payload)
        except httpx.HTTPError as exc:
            log.warning("sms send failed", url=self._url, error=type(exc).__name__)
            raise OtpSendFail() from exc
        if not response.is_success:
            log.warning("sms gateway refused", url=self._url, status=response.status_code)
            raise OtpSendFail()


def build_sms_sender(http: httpx.AsyncClient, settings: Settings) -> SmsSender:
    """The deployment's SMS provider (``PAO_SMS_PROVIDER``)."""
    if settings.sms_provider == "thaibulksms":
        return ThaiBulkSmsSender(http, settings)
    return HttpSmsSender(http, url=sms_endpoint(settings), sender=settings.sms_sender)


class BudgetedSmsSender:
    """Sends through ``inner`` only what the hourly budgets allow (else ``OTP_BLOCK``); a
    sender :meth:`with_proof` may also spend the reserve."""

    def __init__(self, inner: SmsSender, budget: SmsBudget, *, proven: bool = False) -> None:
        self._inner = inner
        self._budget = budget
        self._proven = proven

    def with_proof(self) -> BudgetedSmsSender:
        return BudgetedSmsSender(self._inner, self._budget, proven=True)

    async def send(self, *, phone: str, text: str) -> None:
        await self._budget.spend(phone=phone, proven=self._proven)
        await self._inner.send(phone=phone, text=text)


class BudgetedOtpProvider:
    """An OTP provider whose requests spend from the same hourly budgets as an SMS (a code it
    texts is an SMS paid for); checking a code spends nothing."""

    def __init__(self, inner: OtpProvider, budget: SmsBudget, *, proven: bool = False) -> None:
        self._inner = inner
        self._budget = budget
        self._proven = proven

    def with_proof(self) -> BudgetedOtpProvider:
        return BudgetedOtpProvider(self._inner, self._budget, proven=True)

    async def request(self, *, phone: str) -> ProviderOtp:
        await self._budget.spend(phone=phone, proven=self._proven)
        return await self._inner.request(phone=phone)

    async def verify(self, *, token: str, pin: str) -> Verdict:
        return await self._inner.verify(token=token, pin=pin)


async def _budget(request: Request, session: SessionDep) -> SmsBudget:
    settings: Settings = request.app.state.settings
    site = await load_site_settings(session)
    limits = SmsLimits(
        per_prefix_per_hour=site.otp_hourly_cap_per_prefix,
        per_hour=site.otp_hourly_cap,
        prefix_digits=site.otp_prefix_digits,
        reserve_per_hour=settings.otp_reserve_per_hour,
    )
    return SmsBudget(request.app.state.rate_limiter, limits)


async def get_sms_sender(request: Request, session: SessionDep) -> SmsSender:
    """The app's sender, within the operator's hourly budgets; tests may override this
    dependency with a fake."""
    settings: Settings = request.app.state.settings
    return BudgetedSmsSender(
        build_sms_sender(request.app.state.http, settings), await _budget(request, session)
    )


SmsSenderDep = Annotated[SmsSender, Depends(get_sms_sender)]


def get_otp_checker(request: Request) -> OtpProvider:
    """The provider that checks codes it made. Built whatever ``PAO_OTP_PROVIDER`` says now:
    a code requested before the operator switched back to ``pao`` is still checked by
    ThaiBulkSMS (only rows holding a provider token ever ask it)."""
    return ThaiBulkSmsOtp(request.app.state.http, request.app.state.settings)


async def get_otp_provider(request: Request, session: SessionDep) -> BudgetedOtpProvider | None:
    """The provider that makes registration codes, within the hourly budgets; None: Pao makes
    them itself (and texts them through :data:`SmsSenderDep`)."""
    settings: Settings = request.app.state.settings
    if settings.otp_provider != "thaibulksms":
        return None
    return BudgetedOtpProvider(get_otp_checker(request), await _budget(request, session))


OtpProviderDep = Annotated[BudgetedOtpProvider | None, Depends(get_otp_provider)]
OtpCheckerDep = Annotated[OtpProvider, Depends(get_otp_checker)]
