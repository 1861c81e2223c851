"""Typed access to operator settings.

:class:`SiteSettings` declares every setting with its default; rows in ``site_settings``
override them. Money settings are integer minor units **per currency**, typed
:data:`MoneyPerCurrency` (a :class:`~pao.kit.money.PerCurrency`): the member's wallet currency
picks the value (``settings.withdraw_max.for_currency(member.currency)``), and a currency without
a value means what the field's comment says (ADR 0020), never another currency's number. The CLI
(``pao ops settings set KEY VALUE --currency LAK``) and the editors read them in major units.
Texts shown to players are per locale (:mod:`pao.site.content`); HTML is sanitised whenever it
is validated, that is when stored and again when loaded.
"""

from __future__ import annotations

from time import monotonic
from typing import Annotated, Any, Literal
from uuid import uuid4
from weakref import WeakKeyDictionary
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import structlog
from pydantic import AfterValidator, BaseModel, Field, ValidationError
from sqlalchemy import Engine, Pool, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.after_commit import after_commit
from pao.kit.clock import utcnow
from pao.kit.money import PerCurrency
from pao.site.content import (
    Banner,
    LocalizedHtml,
    LocalizedText,
    SafeUrl,
    SourceList,
    TimeOfDay,
)
from pao.site.models import SiteSetting, SiteSettingChange
from pao.support.bot_tree import BotTree, default_bot_tree

log = structlog.get_logger(__name__)


class MoneySetting:
    """Marks a money setting: minor units per currency (entered and shown in major units)."""


MoneyPerCurrency = Annotated[PerCurrency, MoneySetting()]


def _amounts(alias: str, *, thb: int | None, lak: int | None) -> Any:
    """A money setting's field: its stored key and its default per currency, minor units. The
    kip defaults are kip amounts of their own (ADR 0020), never the baht number read as kip."""
    return Field(default_factory=lambda: PerCurrency(THB=thb, LAK=lak), alias=alias)


def _check_timezone(value: str) -> str:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown time zone {value!r}") from exc
    return value


TimeZoneName = Annotated[str, AfterValidator(_check_timezone)]


# A banner of the invite / refund / bonus carousels (texts per locale).
PromoBanner = Banner


class SiteSettings(BaseModel):
    terminated: bool = False
    register_otp: bool = Field(default=True, alias="registerOTP")
    enable_chat_widget: bool = Field(default=False, alias="enableChatWidget")
    # Support chat FAQ bot (pao.support.bot): answers while no agent is online.
    chat_bot_enabled: bool = Field(default=False, alias="chatBotEnabled")
    chat_bot_tree: BotTree = Field(default_factory=default_bot_tree, alias="chatBotTree")
    # Money settings are per currency (minor units; ADR 0020). What a currency without a value
    # means is said at each field.
    # Withdrawals. Unset: withdrawals are not offered in that currency (CURRENCY_NOT_OFFERED).
    withdraw_min: MoneyPerCurrency = _amounts("withdrawMin", thb=100_00, lak=50_000_00)
    withdraw_max: MoneyPerCurrency = _amounts("withdrawMax", thb=50_000_00, lak=20_000_000_00)
    # Withdrawals up to this amount are approved and paid by the payout job without an
    # operator (pao.payments.payouts); 0 or unset = every withdrawal waits for a cashier.
    withdraw_auto_approve_max: MoneyPerCurrency = _amounts("withdrawAutoApproveMax", thb=0, lak=0)
    # Manual credits and debits by staff (pao.wallet.adjustments) above this amount wait for a
    # second staff member's approval (four eyes); at or below it they post at once. Unset:
    # every adjustment in that currency waits for approval.
    manual_adjustment_approval_above: MoneyPerCurrency = _amounts(
        "manualAdjustmentApprovalAbove", thb=5_000_00, lak=3_000_000_00
    )
    # Totals staff may post alone (no second approver) in 24 hours, per direction: one staff
    # member's, and one member's from every staff member. A request that would pass either waits
    # for approval as one above manualAdjustmentApprovalAbove does, so that a limit per
    # adjustment cannot be split into many small ones. Unset: every adjustment waits.
    manual_adjustment_staff_daily: MoneyPerCurrency = _amounts(
        "manualAdjustmentStaffDaily", thb=20_000_00, lak=12_000_000_00
    )
    manual_adjustment_member_daily: MoneyPerCurrency = _amounts(
        "manualAdjustmentMemberDaily", thb=10_000_00, lak=6_000_000_00
    )
    # A withdrawal requested within this many hours after the member's bank account (bank,
    # number or holder name) changed, or while it changes, is never auto-approved: it waits
    # for a cashier (pao.identity.changes). 0 = no hold.
    bank_change_hold_hours: int = Field(default=24, alias="bankChangeHoldHours", ge=0, le=24 * 90)
    # Linked accounts (pao.identity.links): the signals that flag a withdrawal in the cashiers'
    # queue and hold it back from auto-approval, and the address signal's window. An address
    # alone holds nothing by default: mobile carriers put many subscribers behind one.
    hold_linked_bank_account: bool = Field(default=True, alias="holdLinkedBankAccount")
    hold_linked_holder_name: bool = Field(default=True, alias="holdLinkedHolderName")
    hold_linked_device: bool = Field(default=True, alias="holdLinkedDevice")
    hold_linked_address: bool = Field(default=False, alias="holdLinkedAddress")
    linked_address_window_hours: int = Field(
        default=24, alias="linkedAddressWindowHours", ge=1, le=24 * 30
    )
    # Site content (pao.site lookups). Texts are per locale; *Html fields are sanitised.
    site_name: str = Field(default="Pao", alias="siteName", min_length=1, max_length=80)
    website: SafeUrl = ""
    sources: SourceList = Field(default_factory=list)
    contact_text: LocalizedHtml = Field(default_factory=LocalizedHtml, alias="contactText")
    line_link: SafeUrl = Field(default="", alias="lineLink")
    line_name: str = Field(default="", alias="lineName", max_length=80)
    line_qr: SafeUrl | None = Field(default=None, alias="lineQR")
    conditions: list[LocalizedHtml] = Field(default_factory=list)
    agreements: list[LocalizedText] = Field(default_factory=list)
    # May contain '%percentFail%', which the client replaces with a bonus's percentFail.
    notice: LocalizedHtml = Field(default_factory=LocalizedHtml)
    # Slip deposits: minimum (per currency; unset: slips are not accepted in it), a daily
    # closed window in the operator's time zone (from == to means never closed), and how long
    # after the transfer a slip is accepted.
    slip_minimum_deposit: MoneyPerCurrency = _amounts("slipMinimumDeposit", thb=1_00, lak=1_000_00)
    slip_closed_from: TimeOfDay = Field(default="23:50", alias="slipClosedFrom")
    slip_closed_to: TimeOfDay = Field(default="00:10", alias="slipClosedTo")
    slip_upload_within_minutes: int = Field(default=60, alias="slipUploadWithinMinutes", ge=1)
    # How-to videos (spec §2): URLs of the five videos, empty when not configured.
    howto_wallet: SafeUrl = Field(default="", alias="howtoWallet")
    howto_enter_game: SafeUrl = Field(default="", alias="howtoEnterGame")
    howto_check_balance: SafeUrl = Field(default="", alias="howtoCheckBalance")
    howto_receive_bonus: SafeUrl = Field(default="", alias="howtoReceiveBonus")
    howto_end_bonus: SafeUrl = Field(default="", alias="howtoEndBonus")
    # OTP throttles.
    otp_daily_cap_per_phone: int = Field(default=5, alias="otpDailyCapPerPhone", ge=1)
    otp_daily_cap_per_ip: int = Field(default=20, alias="otpDailyCapPerIp", ge=1)
    # SMS pumping caps (pao.identity.sms_budget): SMS per hour to numbers sharing their first
    # otpPrefixDigits digits, and SMS per hour in all.
    otp_hourly_cap_per_prefix: int = Field(default=10, alias="otpHourlyCapPerPrefix", ge=1)
    otp_prefix_digits: int = Field(default=6, alias="otpPrefixDigits", ge=3, le=12)
    otp_hourly_cap: int = Field(default=300, alias="otpHourlyCap", ge=1)
    # Login throttles (pao.core.login_throttle): failures allowed before REQUEST_LIMIT.
    # loginFailuresPerPhone counts per (phone, IP), so a stranger's guesses never lock the
    # owner out; it also bounds wrong passwords given to confirm a change of the own account.
    # loginFailuresPerIp counts per IP (any phones); both over loginWindowSeconds.
    # loginFailuresPerAccount is the backstop against guessers rotating IPs: per phone over
    # loginAccountWindowSeconds; once reached, only IPs the owner logged in from may try.
    login_failures_per_phone: int = Field(default=5, alias="loginFailuresPerPhone", ge=1)
    login_failures_per_ip: int = Field(default=30, alias="loginFailuresPerIp", ge=1)
    login_window_seconds: int = Field(default=15 * 60, alias="loginWindowSeconds", ge=1)
    login_failures_per_account: int = Field(default=50, alias="loginFailuresPerAccount", ge=1)
    login_account_window_seconds: int = Field(default=3600, alias="loginAccountWindowSeconds", ge=1)
    timezone: TimeZoneName = "Asia/Bangkok"
    # Games: launch inside the app (an iframe) instead of a new tab, and the operator's own
    # UFABET host (replaces the UFABET card's web link when set).
    game_launch_iframe: bool = Field(default=False, alias="gameLaunchIframe")
    ufa_host: SafeUrl = Field(default="", alias="ufaHost")
    # Promotions (docs/domain/promotions.md). Rates are basis points: 100 = 1 %. Unset money
    # for a currency: the invite income, the refund, the coins are not offered in it.
    bonus_deposit_window_hours: int = Field(default=24, alias="bonusDepositWindowHours", ge=1)
    invite_enabled: bool = Field(default=True, alias="inviteEnabled")
    invite_rate_bp: int = Field(default=500, alias="inviteRateBp", ge=0, le=10_000)
    invite_min_deposit: MoneyPerCurrency = _amounts("inviteMinDeposit", thb=100_00, lak=50_000_00)
    invite_max_per_invitee: MoneyPerCurrency = _amounts(
        "inviteMaxPerInvitee", thb=500_00, lak=300_000_00
    )
    invite_banners: list[PromoBanner] = Field(default_factory=list, alias="inviteBanners")
    refund_enabled: bool = Field(default=True, alias="refundEnabled")
    refund_period: Literal["day", "week"] = Field(default="week", alias="refundPeriod")
    refund_rate_bp: int = Field(default=500, alias="refundRateBp", ge=0, le=10_000)
    refund_minimum: MoneyPerCurrency = _amounts("refundMinimum", thb=1_00, lak=1_000_00)
    refund_max_per_period: MoneyPerCurrency = _amounts(
        "refundMaxPerPeriod", thb=5_000_00, lak=3_000_000_00
    )
    refund_banners: list[PromoBanner] = Field(default_factory=list, alias="refundBanners")
    spin_enabled: bool = Field(default=True, alias="spinEnabled")
    spin_deposit_per_coin: MoneyPerCurrency = _amounts(
        "spinDepositPerCoin", thb=100_00, lak=50_000_00
    )
    coupon_valid_days: int = Field(default=7, alias="couponValidDays", ge=1)
    # QR deposits (pao.payments.qr): minutes a QR stays payable; PAYTIMZ's minimum when the
    # operator overrides the gateway's own 10 baht (unset: the gateway's own).
    qr_expire_minutes: int = Field(default=15, alias="qrExpireMinutes", ge=1, le=24 * 60)
    paytimz_minimum: MoneyPerCurrency = _amounts("paytimzMinimum", thb=None, lak=None)

    model_config = {"populate_by_name": True}


async def load_site_settings(session: AsyncSession) -> SiteSettings:
    """The operator's settings: read and parsed at most once a second per database pool.

    Nearly every request reads them and an operator command changes them, rarely; parsing
    (HTML sanitising included) costs more than the query. :func:`set_value` in this process
    drops the cached copy at once; a change made by another process shows within
    :data:`CACHE_SECONDS`, as the termination flag does (pao.site.termination)."""
    bind = session.get_bind()
    pool = bind.pool if isinstance(bind, Engine) else bind.engine.pool
    cached = _cached.get(pool)
    if cached is not None and cached[1] == _generation and monotonic() - cached[0] < CACHE_SECONDS:
        # A copy: callers may not change the shared instance.
        return cached[2].model_copy()
    read_at, generation = monotonic(), _generation
    rows = await session.execute(_ROWS)
    parsed = _parse({key: value for key, value in rows if key in _KNOWN_KEYS})
    _cached[pool] = (read_at, generation, parsed)
    return parsed.model_copy()


def _parse(data: dict[str, Any]) -> SiteSettings:
    try:
        return SiteSettings.model_validate(data)
    except ValidationError as exc:
        # One bad row (edited by hand, or written before a rule tightened) must not take every
        # request down with it: fall back to that setting's default and say so in the log.
        bad = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
        log.warning("invalid site settings ignored", keys=sorted(bad))
        return SiteSettings.model_validate({k: v for k, v in data.items() if k not in bad})


def invalidate_settings_cache() -> None:
    """Make every database pool of this process re-read the settings on the next load."""
    global _generation
    _generation += 1


CACHE_SECONDS = 1.0
_ROWS = select(SiteSetting.key, SiteSetting.value)
_KNOWN_KEYS = frozenset(
    {f.alias or name for name, f in SiteSettings.model_fields.items()}
    | set(SiteSettings.model_fields)
)
# Per database pool (one per app; tests' apps never share one): (read at, generation, parsed).
_cached: WeakKeyDictionary[Pool, tuple[float, int, SiteSettings]] = WeakKeyDictionary()
_generation = 0


async def get_value(session: AsyncSession, key: str, default: Any = None) -> Any:
    row = await session.get(SiteSetting, key)
    return default if row is None else row.value


def new_change_set() -> str:
    """The id that groups the keys of one save in ``site_setting_changes``."""
    return uuid4().hex


async def set_value(
    session: AsyncSession, key: str, value: Any, *, actor: str, change_set: str | None = None
) -> None:
    """Store ``value`` under ``key`` and record the change (before, after, who) in the history.

    Every writer of a setting comes here, so the history misses no path. ``change_set`` groups
    several calls of one save into one version; without it the change is a version of its own.
    Writing the value already stored records nothing."""
    # Dropped now (this transaction reads its own change) and again once committed (others
    # may have cached the old value meanwhile).
    invalidate_settings_cache()
    row = await session.get(SiteSetting, key)
    before = None if row is None else row.value
    if row is None:
        session.add(SiteSetting(key=key, value=value, updated_by=actor))
    else:
        row.value = value
        row.updated_by = actor
    if row is None or before != value:
        session.add(
            SiteSettingChange(
                change_set=change_set or new_change_set(),
                key=key,
                before=before,
                after=value,
                actor=actor[:80],
                at=utcnow(),
            )
        )
    await session.flush()
    # Once the outermost transaction commits, not on a savepoint's release (which others
    # cannot see) nor for a rolled-back change (pao.kit.after_commit). A change undone by a
    # savepoint's rollback still drops the cache at the commit: one needless re-read.
    after_commit(session, invalidate_settings_cache)
