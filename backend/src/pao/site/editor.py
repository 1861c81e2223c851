"""The back office's editors of the operator settings: groups saved whole, their history, revert.

The settings fall into three groups, each edited on one screen: ``content`` (what players
read: contact text, conditions, agreements, notice, how-to videos, banners), ``rules`` (refund
and invite) and ``site`` (limits, throttles, flags, the site's closing). A save of a group is
validated together, through :class:`~pao.site.settings.SiteSettings` and the minimum ≤ maximum
rules of :func:`pao.site.service.check_ranges`, and is all or nothing: the first value at
fault is refused with its ``field`` and nothing is stored. What changed is written through
:func:`~pao.site.settings.set_value` under one change-set id, so the history
(``site_setting_changes``) shows the save as one version; closing or reopening the site goes
through :func:`~pao.site.service.terminate_site` / :func:`~pao.site.service.reopen_site`.

Reverting a version puts back, for that group's keys, the values from before it, validated
under today's rules and recorded as a new version (history is never rewritten).

Money settings are integer minor units per currency when stored (``{"THB": 10000, "LAK":
5000000}``, ADR 0020); the editors' wire carries major units per currency (``{"THB": 100,
"LAK": 50000}``, ``null`` for a currency without a value), like the rest of the back office
API: :func:`from_wire` and :func:`to_wire` convert. A save may name some currencies only; the
others keep their value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency, WireAmount, to_major
from pao.site.exceptions import (
    SettingChangeNotFound,
    SettingOutOfRange,
    SettingRangeRejected,
    SettingRejected,
)
from pao.site.models import SiteSettingChange
from pao.site.service import check_ranges, reopen_site, terminate_site
from pao.site.settings import SiteSettings, load_site_settings, new_change_set, set_value
from pao.site.termination import TERMINATED_KEY


class Group(StrEnum):
    CONTENT = "content"
    RULES = "rules"
    SITE = "site"


class Kind(StrEnum):
    """How an editor shows and takes a setting (the client picks its input by it)."""

    BOOL = "bool"
    INT = "int"
    MONEY = "money"  # {THB, LAK}: major units per currency on the wire, null = unset
    PERCENT_BP = "percentBp"  # basis points on the wire, shown as a percentage
    TEXT = "text"
    URL = "url"
    HTML = "html"  # {th, la, en} sanitised HTML
    HTML_LIST = "htmlList"  # [{th, la, en}] sanitised HTML
    TEXT_LIST = "textList"  # [{th, la, en}] plain text
    BANNERS = "banners"  # [{image, html: {th, la, en}, title: {th, la, en}}]
    CHOICE = "choice"
    TIME = "time"  # HH:MM
    TIME_ZONE = "timeZone"


@dataclass(frozen=True)
class FieldSpec:
    key: str
    kind: Kind
    choices: tuple[str, ...] = ()


def _fields(*specs: tuple[str, Kind] | FieldSpec) -> tuple[FieldSpec, ...]:
    return tuple(s if isinstance(s, FieldSpec) else FieldSpec(*s) for s in specs)


# The settings of each group, in the order the screens show them. Left out on purpose: the
# wheel's and bonuses' own settings (their editors), the chat bot's tree, marketing sources.
GROUPS: dict[Group, tuple[FieldSpec, ...]] = {
    Group.CONTENT: _fields(
        ("siteName", Kind.TEXT),
        ("website", Kind.URL),
        ("contactText", Kind.HTML),
        ("lineName", Kind.TEXT),
        ("lineLink", Kind.URL),
        ("lineQR", Kind.URL),
        ("notice", Kind.HTML),
        ("conditions", Kind.HTML_LIST),
        ("agreements", Kind.TEXT_LIST),
        ("howtoWallet", Kind.URL),
        ("howtoEnterGame", Kind.URL),
        ("howtoCheckBalance", Kind.URL),
        ("howtoReceiveBonus", Kind.URL),
        ("howtoEndBonus", Kind.URL),
        ("inviteBanners", Kind.BANNERS),
        ("refundBanners", Kind.BANNERS),
    ),
    Group.RULES: _fields(
        ("inviteEnabled", Kind.BOOL),
        ("inviteRateBp", Kind.PERCENT_BP),
        ("inviteMinDeposit", Kind.MONEY),
        ("inviteMaxPerInvitee", Kind.MONEY),
        ("refundEnabled", Kind.BOOL),
        FieldSpec("refundPeriod", Kind.CHOICE, ("day", "week")),
        ("refundRateBp", Kind.PERCENT_BP),
        ("refundMinimum", Kind.MONEY),
        ("refundMaxPerPeriod", Kind.MONEY),
    ),
    Group.SITE: _fields(
        ("withdrawMin", Kind.MONEY),
        ("withdrawMax", Kind.MONEY),
        ("withdrawAutoApproveMax", Kind.MONEY),
        ("manualAdjustmentApprovalAbove", Kind.MONEY),
        ("manualAdjustmentStaffDaily", Kind.MONEY),
        ("manualAdjustmentMemberDaily", Kind.MONEY),
        ("bankChangeHoldHours", Kind.INT),
        ("holdLinkedBankAccount", Kind.BOOL),
        ("holdLinkedHolderName", Kind.BOOL),
        ("holdLinkedDevice", Kind.BOOL),
        ("holdLinkedAddress", Kind.BOOL),
        ("linkedAddressWindowHours", Kind.INT),
        ("slipMinimumDeposit", Kind.MONEY),
        ("slipClosedFrom", Kind.TIME),
        ("slipClosedTo", Kind.TIME),
        ("slipUploadWithinMinutes", Kind.INT),
        ("qrExpireMinutes", Kind.INT),
        ("otpDailyCapPerPhone", Kind.INT),
        ("otpDailyCapPerIp", Kind.INT),
        ("otpHourlyCapPerPrefix", Kind.INT),
        ("otpPrefixDigits", Kind.INT),
        ("otpHourlyCap", Kind.INT),
        ("loginFailuresPerPhone", Kind.INT),
        ("loginFailuresPerIp", Kind.INT),
        ("loginWindowSeconds", Kind.INT),
        ("loginFailuresPerAccount", Kind.INT),
        ("loginAccountWindowSeconds", Kind.INT),
        ("registerOTP", Kind.BOOL),
        ("enableChatWidget", Kind.BOOL),
        ("chatBotEnabled", Kind.BOOL),
        ("gameLaunchIframe", Kind.BOOL),
        ("timezone", Kind.TIME_ZONE),
        ("terminated", Kind.BOOL),
    ),
}
_KIND = {spec.key: spec.kind for specs in GROUPS.values() for spec in specs}
_wire_amount: TypeAdapter[int] = TypeAdapter(WireAmount)
CURRENCIES = tuple(currency.value for currency in Currency)
# How many versions a history answers at most (the newest).
HISTORY_LIMIT = 50


def kind_of(key: str) -> Kind | None:
    """How the editors show the setting ``key`` (``None``: no editor shows it)."""
    return _KIND.get(key)


def keys_of(group: Group) -> tuple[str, ...]:
    return tuple(spec.key for spec in GROUPS[group])


def defaults() -> dict[str, Any]:
    """Every setting's default in its stored (JSON) form."""
    return SiteSettings().model_dump(mode="json", by_alias=True)


def _is_amount(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def to_wire(key: str, stored: Any) -> Any:
    """A stored value as the editors' wire carries it (money in major units per currency)."""
    if _KIND.get(key) is Kind.MONEY and isinstance(stored, dict):
        return {
            currency: to_major(amount) if _is_amount(amount) else amount
            for currency, amount in stored.items()
        }
    return stored


def from_wire(key: str, value: Any) -> Any:
    """A wire value in its stored form (money in minor units per currency);
    :class:`SettingRejected` (``field`` ``withdrawMax.LAK``) when an amount is not one
    (negative, more than two decimals, not a number) or the value is not per currency."""
    if _KIND.get(key) is not Kind.MONEY:
        return value
    if not isinstance(value, dict):
        raise SettingRejected(key, 'an amount per currency, e.g. {"THB": 100, "LAK": 50000}')
    stored: dict[str, int | None] = {}
    for currency, amount in value.items():
        if currency not in CURRENCIES:
            raise SettingRejected(f"{key}.{currency}", f"a currency is one of {CURRENCIES}")
        if amount is None:
            stored[currency] = None
            continue
        try:
            stored[currency] = _wire_amount.validate_python(amount)
        except ValidationError as exc:
            raise SettingRejected(f"{key}.{currency}", exc.errors()[0]["msg"]) from exc
    return stored


def _merged(current: Mapping[str, Any], values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` over ``current``; a money value naming some currencies keeps the others'."""
    merged = dict(values)
    for key, value in values.items():
        if _KIND.get(key) is Kind.MONEY and isinstance(value, dict):
            before = current.get(key)
            merged[key] = {**(before if isinstance(before, dict) else {}), **value}
    return {**current, **merged}


def group_values(settings: SiteSettings, group: Group) -> dict[str, Any]:
    """The group's settings in force, in their wire form."""
    stored = settings.model_dump(mode="json", by_alias=True)
    return {key: to_wire(key, stored[key]) for key in keys_of(group)}


@dataclass(frozen=True)
class Saved:
    """What a save or revert changed: stored values of the changed keys only. ``change_set``
    is ``None`` when nothing changed (nothing was written)."""

    change_set: str | None
    before: dict[str, Any]
    after: dict[str, Any]


async def _store(session: AsyncSession, values: Mapping[str, Any], *, actor: str) -> Saved:
    """Validate ``values`` (stored form) with every other setting as it is now, then write
    what changed under one change set. All or nothing: a refusal raises before any write."""
    current = (await load_site_settings(session)).model_dump(mode="json", by_alias=True)
    try:
        updated = SiteSettings.model_validate(_merged(current, values))
    except ValidationError as exc:
        first = exc.errors()[0]
        raise SettingRejected(".".join(str(part) for part in first["loc"]), first["msg"]) from exc
    try:
        check_ranges(updated, set(values))
    except SettingOutOfRange as exc:
        raise SettingRangeRejected(exc.field, exc.maximum) from exc
    after = updated.model_dump(mode="json", by_alias=True)
    changed = [key for key in values if after[key] != current[key]]
    if not changed:
        return Saved(change_set=None, before={}, after={})
    change_set = new_change_set()
    for key in changed:
        if key == TERMINATED_KEY:
            # Through the site's own switch, which also drops the termination cache.
            switch = terminate_site if after[key] else reopen_site
            await switch(session, actor=actor, change_set=change_set)
        else:
            await set_value(session, key, after[key], actor=actor, change_set=change_set)
    return Saved(
        change_set=change_set,
        before={key: current[key] for key in changed},
        after={key: after[key] for key in changed},
    )


async def save_group(
    session: AsyncSession, *, group: Group, values: Mapping[str, Any], actor: str
) -> Saved:
    """Save some or all of a group's settings (wire form) together, or none of them."""
    allowed = set(keys_of(group))
    for key in values:
        if key not in allowed:
            raise SettingRejected(key, f"not a setting of the {group.value} group")
    return await _store(
        session, {key: from_wire(key, value) for key, value in values.items()}, actor=actor
    )


async def revert(session: AsyncSession, *, group: Group, change_set: str, actor: str) -> Saved:
    """Put back the group's values from before version ``change_set``, as a new version."""
    rows = (
        await session.scalars(
            select(SiteSettingChange)
            .where(
                SiteSettingChange.change_set == change_set,
                SiteSettingChange.key.in_(keys_of(group)),
            )
            .order_by(SiteSettingChange.id)
        )
    ).all()
    if not rows:
        raise SettingChangeNotFound()
    fallback = defaults()
    restore: dict[str, Any] = {}
    for row in rows:
        # The first row of a key in the set holds its value before the whole save.
        restore.setdefault(row.key, fallback[row.key] if row.before is None else row.before)
    return await _store(session, restore, actor=actor)


@dataclass(frozen=True)
class Change:
    key: str
    before: Any
    after: Any


@dataclass(frozen=True)
class Version:
    change_set: str
    at: datetime
    actor: str
    changes: list[Change] = field(default_factory=list)


async def history(
    session: AsyncSession, *, group: Group, limit: int = HISTORY_LIMIT
) -> list[Version]:
    """The group's versions, newest first, each with who, when and every key it changed
    (wire form; a value from before the key was ever set shows as its default)."""
    rows = (
        await session.scalars(
            select(SiteSettingChange)
            .where(SiteSettingChange.key.in_(keys_of(group)))
            .order_by(SiteSettingChange.id.desc())
            # Enough rows for ``limit`` versions of a few keys each; a rare larger save just
            # shortens the list.
            .limit(limit * 8)
        )
    ).all()
    fallback = defaults()
    versions: dict[str, Version] = {}
    for row in rows:
        version = versions.get(row.change_set)
        if version is None:
            if len(versions) == limit:
                break
            version = versions[row.change_set] = Version(row.change_set, row.at, row.actor)
        before = fallback.get(row.key) if row.before is None else row.before
        version.changes.insert(
            0, Change(row.key, to_wire(row.key, before), to_wire(row.key, row.after))
        )
    return list(versions.values())
