"""Rules of pao.site: the lookups' views of the settings, operator changes, the slip window.

Operator changes (``pao ops site terminate|reopen``, ``pao ops settings set KEY VALUE``) go
through :func:`terminate_site`, :func:`reopen_site` and :func:`set_setting`; like every
service they never commit. Each stored value is validated by :class:`SiteSettings` first and
stored normalised (HTML sanitised, money in minor units), with who changed it.
"""

from __future__ import annotations

import json
import types
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Union, get_args, get_origin
from zoneinfo import ZoneInfo

import structlog
from pydantic import TypeAdapter, ValidationError
from pydantic.fields import FieldInfo
from sqlalchemy import delete
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.after_commit import after_commit
from pao.kit.money import Currency, WireAmount
from pao.site.banks import banks_for
from pao.site.content import Locale
from pao.site.exceptions import InvalidSettingValue, SettingOutOfRange, UnknownSetting
from pao.site.models import SiteSetting
from pao.site.schemas import (
    ActiveOut,
    BankOut,
    ChatWidgetOut,
    ContactOut,
    HowtoKey,
    HowtoVideoOut,
    InfoOut,
    NoticeOut,
    RegisterOtpOut,
    SlipOut,
    SourceOut,
    WithdrawLimitsOut,
)
from pao.site.settings import MoneySetting, SiteSettings, load_site_settings, set_value
from pao.site.termination import TERMINATED_KEY, invalidate_termination_cache

log = structlog.get_logger(__name__)

# The five how-to videos of spec §2, in the order the page shows them.
HOWTO_FIELDS: tuple[tuple[HowtoKey, str], ...] = (
    (HowtoKey.WALLET, "howto_wallet"),
    (HowtoKey.ENTER_GAME, "howto_enter_game"),
    (HowtoKey.CHECK_BALANCE, "howto_check_balance"),
    (HowtoKey.RECEIVE_BONUS, "howto_receive_bonus"),
    (HowtoKey.END_BONUS, "howto_end_bonus"),
)

_TRUE = frozenset({"true", "1", "yes", "on"})
_FALSE = frozenset({"false", "0", "no", "off"})
_NULL = frozenset({"", "null", "none"})
_wire_amount: TypeAdapter[int] = TypeAdapter(WireAmount)


# --- Lookups -------------------------------------------------------------------------------
# Each takes the loaded settings and, for texts, the requested locale and the fallback locale.


def lookup_banks(*, lao_mode: bool) -> list[BankOut]:
    return [
        BankOut(code=bank.code, name_th=bank.name_th, name_en=bank.name_en, country=bank.country)
        for bank in banks_for(lao_mode=lao_mode)
    ]


def lookup_sources(settings: SiteSettings, *, locale: Locale, fallback: Locale) -> list[SourceOut]:
    return [
        SourceOut(code=source.code, description=source.description.pick(locale, fallback=fallback))
        for source in settings.sources
    ]


def lookup_info(settings: SiteSettings) -> InfoOut:
    return InfoOut(name=settings.site_name, website=settings.website)


def lookup_contact(settings: SiteSettings, *, locale: Locale, fallback: Locale) -> ContactOut:
    return ContactOut(
        contact_text=settings.contact_text.pick(locale, fallback=fallback),
        line_link=settings.line_link,
        line_name=settings.line_name,
        line_qr=settings.line_qr or None,
    )


def lookup_conditions(settings: SiteSettings, *, locale: Locale, fallback: Locale) -> list[str]:
    return [item.pick(locale, fallback=fallback) for item in settings.conditions]


def lookup_agreements(settings: SiteSettings, *, locale: Locale, fallback: Locale) -> list[str]:
    return [item.pick(locale, fallback=fallback) for item in settings.agreements]


def lookup_notice(settings: SiteSettings, *, locale: Locale, fallback: Locale) -> NoticeOut:
    return NoticeOut(notice=settings.notice.pick(locale, fallback=fallback))


def lookup_withdraw(settings: SiteSettings, currency: Currency) -> WithdrawLimitsOut:
    """The limits of a ``currency`` wallet; 0 and 0 when withdrawals are not offered in it."""
    minimum = settings.withdraw_min.for_currency(currency)
    maximum = settings.withdraw_max.for_currency(currency)
    if minimum is None or maximum is None:
        return WithdrawLimitsOut(withdraw_min=0, withdraw_max=0)
    return WithdrawLimitsOut(withdraw_min=minimum, withdraw_max=maximum)


def lookup_slip(settings: SiteSettings, currency: Currency) -> SlipOut:
    minimum = settings.slip_minimum_deposit.for_currency(currency)
    return SlipOut(
        # Unset: slips are not accepted in that currency; the answer keeps its shape with 0.
        minimum_deposit=0 if minimum is None else minimum,
        closed_from=settings.slip_closed_from,
        closed_to=settings.slip_closed_to,
        upload_within_minutes=settings.slip_upload_within_minutes,
    )


def lookup_active(settings: SiteSettings) -> ActiveOut:
    return ActiveOut(terminated=settings.terminated)


def lookup_register_otp(settings: SiteSettings) -> RegisterOtpOut:
    return RegisterOtpOut(register_otp=settings.register_otp)


def lookup_chat_widget(settings: SiteSettings) -> ChatWidgetOut:
    return ChatWidgetOut(enable_chat_widget=settings.enable_chat_widget)


def lookup_howto(settings: SiteSettings) -> list[HowtoVideoOut]:
    return [
        HowtoVideoOut(key=key, url=getattr(settings, field) or None) for key, field in HOWTO_FIELDS
    ]


# --- Slip window -------------------------------------------------------------------------


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def is_slip_upload_closed(settings: SiteSettings, *, at: datetime) -> bool:
    """Whether ``at`` (tz-aware) falls in the daily closed window, read in the operator's zone.

    The window is [closedFrom, closedTo) and may wrap midnight; equal ends mean never closed.
    """
    local = at.astimezone(ZoneInfo(settings.timezone))
    now = local.hour * 60 + local.minute
    start, end = _minutes(settings.slip_closed_from), _minutes(settings.slip_closed_to)
    if start == end:
        return False
    if start < end:
        return start <= now < end
    return now >= start or now < end


# --- Operator changes ----------------------------------------------------------------------


def storage_key(name: str) -> str:
    """The ``site_settings.key`` of a field: its camelCase alias, else its name."""
    return SiteSettings.model_fields[name].alias or name


def setting_keys() -> list[str]:
    """Every key ``set_setting`` accepts, as stored (the field names are accepted too)."""
    return sorted(storage_key(name) for name in SiteSettings.model_fields)


def _field_named(key: str) -> str:
    for name, field in SiteSettings.model_fields.items():
        if key in (name, field.alias):
            return name
    raise UnknownSetting(key, setting_keys())


def _base_type(annotation: Any) -> tuple[Any, bool]:
    """(the type under Optional/Annotated, whether None is allowed)."""
    optional = False
    if get_origin(annotation) in (Union, types.UnionType):
        members = [arg for arg in get_args(annotation) if arg is not type(None)]
        optional = len(members) < len(get_args(annotation))
        annotation = members[0] if len(members) == 1 else annotation
    if get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation, optional


def is_money(field: FieldInfo) -> bool:
    return any(isinstance(item, MoneySetting) for item in field.metadata)


_AMOUNT_REASON = "an amount in major units with at most 2 decimals, e.g. 100 or 99.50"


def _amount_text(key: str, text: str) -> int | None:
    """One currency's amount as typed (major units); ``none`` / ``null`` / empty unsets it."""
    if text.strip().lower() in _NULL:
        return None
    try:
        return _wire_amount.validate_python(Decimal(text.strip()))
    except (InvalidOperation, ValidationError) as exc:
        raise InvalidSettingValue(key, f"expected {_AMOUNT_REASON}") from exc


def parse_money_text(key: str, raw: str, currency: Currency | None) -> dict[str, int | None]:
    """A money setting's text: with ``currency``, that currency's amount (``100``, ``none``);
    without, ``THB=100 LAK=50000`` (spaces or commas between pairs). The currencies not named
    keep their value. Minor units per currency, as stored."""
    if currency is not None:
        return {currency.value: _amount_text(key, raw)}
    pairs = [part.partition("=") for part in raw.replace(",", " ").split()]
    if pairs and all(sep and name.upper() in Currency.__members__ for name, sep, _ in pairs):
        return {
            Currency[name.upper()].value: _amount_text(key, amount) for name, _, amount in pairs
        }
    codes = "|".join(Currency)
    raise InvalidSettingValue(
        key,
        f"a money setting is per currency: give --currency {codes} and {_AMOUNT_REASON}, "
        "or THB=100 LAK=50000",
    )


def parse_setting_text(
    field: FieldInfo, key: str, raw: str, *, currency: Currency | None = None
) -> Any:
    """Turn the text an operator typed into the Python value the field expects.

    bool: true/false, yes/no, on/off, 1/0. Money (minor units per currency inside): see
    :func:`parse_money_text`. int: digits. str: the text as given. Optional fields: ``null`` or
    empty text clears them. Anything else (texts per locale, lists): JSON.
    """
    if is_money(field):
        return parse_money_text(key, raw, currency)
    if currency is not None:
        raise InvalidSettingValue(key, "only a money setting takes a currency")
    base, optional = _base_type(field.annotation)
    text = raw.strip()
    if optional and text.lower() in _NULL:
        return None
    if base is bool:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise InvalidSettingValue(key, "expected true or false")
    if base is int:
        try:
            return int(text)
        except ValueError as exc:
            raise InvalidSettingValue(key, "expected a whole number") from exc
    if base is str:
        return raw
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidSettingValue(key, f"expected JSON ({exc.msg})") from exc


# Minimum ≤ maximum pairs (stored keys), checked whenever either side changes.
RANGES: tuple[tuple[str, str], ...] = (
    ("withdrawMin", "withdrawMax"),
    ("refundMinimum", "refundMaxPerPeriod"),
)


def check_ranges(settings: SiteSettings, changed: set[str] | None = None) -> None:
    """Raise :class:`SettingOutOfRange` for the first pair whose minimum exceeds its maximum.

    With ``changed`` (stored keys), only the pairs touching them are checked: a pair stored
    inconsistent earlier (by hand) must not block a change to something else."""
    values = settings.model_dump(by_alias=True)
    for low, high in RANGES:
        if changed is not None and not {low, high} & changed:
            continue
        # Money pairs per currency: each currency's minimum against its own maximum.
        low_value, high_value = values[low], values[high]
        for currency in Currency:
            lowest = low_value.get(currency.value)
            highest = high_value.get(currency.value)
            if lowest is not None and highest is not None and lowest > highest:
                raise SettingOutOfRange(low, high, currency.value)


async def store_setting(
    session: AsyncSession, *, key: str, value: Any, actor: str, change_set: str | None = None
) -> Any:
    """Validate ``value`` (already a Python/JSON value) for ``key`` and store it normalised.

    Returns the stored JSON value. Raises :class:`UnknownSetting` / :class:`InvalidSettingValue`.
    ``change_set`` files the change in the history with the other keys of the same save.
    """
    name = _field_named(key)
    stored_key = storage_key(name)
    current = await load_site_settings(session)
    data = current.model_dump(by_alias=True)
    if is_money(SiteSettings.model_fields[name]) and isinstance(value, dict):
        # A money value naming some currencies keeps the others' amounts.
        data[stored_key] = {**data[stored_key], **value}
    else:
        data[stored_key] = value
    try:
        updated = SiteSettings.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:])
        reason = f"{where}: {first['msg']}" if where else first["msg"]
        raise InvalidSettingValue(stored_key, reason) from exc
    check_ranges(updated, {stored_key})
    stored = updated.model_dump(mode="json", by_alias=True)[stored_key]
    await set_value(session, stored_key, stored, actor=actor, change_set=change_set)
    if name != stored_key:
        # A row under the field name would compete with the canonical one on load.
        await session.execute(delete(SiteSetting).where(SiteSetting.key == name))
    if name == TERMINATED_KEY:
        # This process's termination cache is dropped once the new flag is committed (the
        # outermost transaction: not on a savepoint's release).
        after_commit(session, invalidate_termination_cache)
    log.info("site setting changed", key=stored_key, actor=actor)
    return stored


async def set_setting(
    session: AsyncSession,
    *,
    key: str,
    raw_value: str,
    actor: str,
    currency: Currency | None = None,
) -> object:
    """``pao ops settings set KEY VALUE [--currency LAK]``: parse the text for that setting,
    validate, store.

    ``key`` is the stored camelCase key (``withdrawMin``) or the field name (``withdraw_min``).
    A money setting takes one ``currency``'s amount, or ``THB=… LAK=…``. Returns the stored
    JSON value (money in minor units per currency). Raises ``ValueError`` subclasses
    (:class:`UnknownSetting`, :class:`InvalidSettingValue`) whose text is the line to print.
    """
    name = _field_named(key)
    value = parse_setting_text(
        SiteSettings.model_fields[name], storage_key(name), raw_value, currency=currency
    )
    return await store_setting(session, key=name, value=value, actor=actor)


async def terminate_site(
    session: AsyncSession, *, actor: str, change_set: str | None = None
) -> None:
    """Close the site: every /api call but ``GET /api/lookup/active`` (and the back office's,
    so that staff can reopen it) answers 410 ``gone``."""
    await store_setting(session, key=TERMINATED_KEY, value=True, actor=actor, change_set=change_set)


async def reopen_site(session: AsyncSession, *, actor: str, change_set: str | None = None) -> None:
    await store_setting(
        session, key=TERMINATED_KEY, value=False, actor=actor, change_set=change_set
    )
