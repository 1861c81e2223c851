"""HTTP routes of pao.site: the lookups of spec §7 (``GET /api/lookup/…``), no login needed.

Every answer is built from the operator settings in the database (:mod:`pao.site.settings`).
``GET /api/lookup/active`` is the one /api call a terminated site still answers.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request

from pao.core.language import LANGUAGE_DOC, RequestLanguage
from pao.core.openapi import VALIDATION, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import BearerCredentials, member_if_signed_in
from pao.kit.money import Currency
from pao.site import service
from pao.site.schemas import (
    ActiveOut,
    BankOut,
    ChatWidgetOut,
    ContactOut,
    HowtoVideoOut,
    InfoOut,
    NoticeOut,
    RegisterOtpOut,
    SlipOut,
    SourceOut,
    WithdrawLimitsOut,
)
from pao.site.settings import SiteSettings, load_site_settings

router = APIRouter(route_class=UnitOfWorkRoute)

TAGS: list[str | Enum] = ["lookup"]
GONE = errors(_410="gone")
LOCALISED_ERRORS = {**GONE, **VALIDATION}

LOCALE_DOC = LANGUAGE_DOC


def _lao_mode(request: Request) -> bool:
    return bool(request.app.state.settings.lao_mode)


async def _site_settings(session: SessionDep) -> SiteSettings:
    return await load_site_settings(session)


Settings = Annotated[SiteSettings, Depends(_site_settings)]


async def _wallet_currency(
    request: Request, session: SessionDep, credentials: BearerCredentials
) -> Currency:
    """The currency whose money numbers a lookup answers: the signed-in member's wallet
    currency, else the operator's own (kip on a Lao server, baht otherwise)."""
    member = await member_if_signed_in(session, credentials)
    if member is not None:
        return Currency(member.currency)
    return Currency.LAK if _lao_mode(request) else Currency.THB


WalletCurrency = Annotated[Currency, Depends(_wallet_currency)]
# A lookup that answers anyone, and the signed-in member for their own currency: the member's
# token is optional (the empty requirement beside the bearer), so a request without one is valid.
OPTIONAL_MEMBER: dict[str, Any] = {"security": [{}]}  # FastAPI adds it beside the bearer
Lang = RequestLanguage


@router.get(
    "/api/lookup/banks",
    operation_id="lookupBanks",
    tags=TAGS,
    response_model=list[BankOut],
    responses=GONE,
    summary="Banks a member can register with",
    description="Thai and Lao banks; in Lao mode the Lao banks come first.",
)
async def banks(request: Request) -> list[BankOut]:
    return service.lookup_banks(lao_mode=_lao_mode(request))


@router.get(
    "/api/lookup/sources",
    operation_id="lookupSources",
    tags=TAGS,
    response_model=list[SourceOut],
    responses=LOCALISED_ERRORS,
    summary="Marketing sources offered on registration",
    description="The operator's list of 'how did you hear of us' answers." + LOCALE_DOC,
)
async def sources(settings: Settings, language: Lang) -> list[SourceOut]:
    return service.lookup_sources(settings, locale=language.locale, fallback=language.fallback)


@router.get(
    "/api/lookup/info",
    operation_id="lookupInfo",
    tags=TAGS,
    response_model=InfoOut,
    responses=GONE,
    summary="Operator name and website",
)
async def info(settings: Settings) -> InfoOut:
    return service.lookup_info(settings)


@router.get(
    "/api/lookup/contact",
    operation_id="lookupContact",
    tags=TAGS,
    response_model=ContactOut,
    responses=LOCALISED_ERRORS,
    summary="Contact page content",
    description="Contact text (sanitised HTML) and the LINE link, id and QR image." + LOCALE_DOC,
)
async def contact(settings: Settings, language: Lang) -> ContactOut:
    return service.lookup_contact(settings, locale=language.locale, fallback=language.fallback)


@router.get(
    "/api/lookup/conditions",
    operation_id="lookupConditions",
    tags=TAGS,
    response_model=list[str],
    responses=LOCALISED_ERRORS,
    summary="Terms shown in the conditions popup",
    description="A list of sanitised HTML fragments." + LOCALE_DOC,
)
async def conditions(settings: Settings, language: Lang) -> list[str]:
    return service.lookup_conditions(settings, locale=language.locale, fallback=language.fallback)


@router.get(
    "/api/lookup/agreements",
    operation_id="lookupAgreements",
    tags=TAGS,
    response_model=list[str],
    responses=LOCALISED_ERRORS,
    summary="Agreement the member accepts",
    description="A list of plain-text blocks (render as text, not HTML)." + LOCALE_DOC,
)
async def agreements(settings: Settings, language: Lang) -> list[str]:
    return service.lookup_agreements(settings, locale=language.locale, fallback=language.fallback)


@router.get(
    "/api/lookup/notice",
    operation_id="lookupNotice",
    tags=TAGS,
    response_model=NoticeOut,
    responses=LOCALISED_ERRORS,
    summary="Bonus notice template",
    description="Sanitised HTML; the client replaces '%percentFail%' with the bonus's "
    "percentFail." + LOCALE_DOC,
)
async def notice(settings: Settings, language: Lang) -> NoticeOut:
    return service.lookup_notice(settings, locale=language.locale, fallback=language.fallback)


@router.get(
    "/api/lookup/withdraw",
    operation_id="lookupWithdraw",
    openapi_extra=OPTIONAL_MEMBER,
    tags=TAGS,
    response_model=WithdrawLimitsOut,
    responses=GONE,
    summary="Withdrawal limits",
    description="Smallest and largest withdrawal, in major units of the member's wallet "
    "currency (baht or kip; with the member's bearer token; without one, the operator's own "
    "currency). Both 0 when withdrawals are not offered in that currency.",
)
async def withdraw(settings: Settings, currency: WalletCurrency) -> WithdrawLimitsOut:
    return service.lookup_withdraw(settings, currency)


@router.get(
    "/api/lookup/slip",
    operation_id="lookupSlip",
    openapi_extra=OPTIONAL_MEMBER,
    tags=TAGS,
    response_model=SlipOut,
    responses=GONE,
    summary="Slip upload rules",
    description="Minimum slip deposit (major units); the daily window (closedFrom to closedTo, "
    "HH:MM in the operator's time zone, may wrap midnight) during which slip upload is "
    "closed; and how many minutes after the transfer a slip may still be uploaded.",
)
async def slip(settings: Settings, currency: WalletCurrency) -> SlipOut:
    return service.lookup_slip(settings, currency)


@router.get(
    "/api/lookup/active",
    operation_id="lookupActive",
    tags=TAGS,
    response_model=ActiveOut,
    summary="Whether the site is terminated",
    description="Always answers, also when the site is terminated (then every other /api "
    "call answers 410 gone).",
)
async def active(settings: Settings) -> ActiveOut:
    return service.lookup_active(settings)


@router.get(
    "/api/lookup/registerOTP",
    operation_id="lookupRegisterOtp",
    tags=TAGS,
    response_model=RegisterOtpOut,
    responses=GONE,
    summary="Whether registration requires an OTP-verified phone",
)
async def register_otp(settings: Settings) -> RegisterOtpOut:
    return service.lookup_register_otp(settings)


@router.get(
    "/api/lookup/enableChatWidget",
    operation_id="lookupEnableChatWidget",
    tags=TAGS,
    response_model=ChatWidgetOut,
    responses=GONE,
    summary="Whether the live chat widget is shown",
)
async def enable_chat_widget(settings: Settings) -> ChatWidgetOut:
    return service.lookup_chat_widget(settings)


@router.get(
    "/api/lookup/howto",
    operation_id="lookupHowto",
    tags=TAGS,
    response_model=list[HowtoVideoOut],
    responses=GONE,
    summary="How-to videos",
    description="The five videos of the how-to page in display order (wallet, enter_game, "
    "check_balance, receive_bonus, end_bonus); url is null when not configured.",
)
async def howto(settings: Settings) -> list[HowtoVideoOut]:
    return service.lookup_howto(settings)
