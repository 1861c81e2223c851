"""The prize wheel as the operator edits it (the back office's wheel editor, issue 18).

:func:`load_editor` reads the wheel with every slice's weight, probability and prize, the
expected payout per spin and the coin rules; :func:`save_wheel` replaces the wheel's name, its
slices (added, edited, reordered, removed) and the coin rules in one validated change: either
everything passes and is written, or nothing is and a catalogue code says why.

* A slice that spins or coupons refer to is **retired** (``retired_at``), never deleted: past
  spins and coupons keep their slice, and the player's wheel (:mod:`pao.promotions.wheel`) shows
  and draws only live slices. A slice nobody used is deleted.
* The published odds are computed from the rows on every ``GET /api/spinwheel/setup``, so they
  follow a saved change at once. :func:`wheel_odds` is the same arithmetic (weight / total) the
  editor shows, exactly, as fractions.
* A save holds the wheel's row lock (exclusive) while it reads and writes the slices; a spin
  holds it shared (:func:`pao.promotions.wheel.hold_for_spin`). So a spin racing an edit draws
  from the slices before or after the edit, never from a mixture.

Refusals (400, nothing written)::

    BadRequest
     ├── WheelInvalid        WHEEL_INVALID        + ``field``: an empty label, a bad colour, a
     │                                            negative weight or amount, a credit prize of 0,
     │                                            an unknown slice id, a coin rule out of range
     ├── WheelSliceCount     WHEEL_SLICE_COUNT    fewer than MIN_SLICES or more than MAX_SLICES
     └── WheelWeightsZero    WHEEL_WEIGHTS_ZERO   the weights sum to zero: nothing could be drawn
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from pydantic import ValidationError
from sqlalchemy import exists, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import BadRequest
from pao.kit.clock import utcnow
from pao.kit.i18n import LOCALES, LocalizedText
from pao.kit.money import Currency, PerCurrency, recorded, recorded_each
from pao.promotions.content import HTML_MAX, LABEL_MAX, NAME_MAX
from pao.promotions.models import PrizeType, Wheel, WheelCoupon, WheelSlice, WheelSpin
from pao.site.content import LocalizedHtml
from pao.site.settings import SiteSettings, load_site_settings, set_value

# The player's wheel (frontend WheelCanvas) draws equal slices with the label along the radius,
# at least 11 px high on a wheel of at most 350 px: beyond 16 slices the labels no longer fit
# their slice near the centre, and a wheel of one slice is no draw.
MIN_SLICES = 2
MAX_SLICES = 16
WEIGHT_MAX = 1_000_000
# The largest prize of one slice, minor units (1,000,000 baht): a typo guard, not a policy.
PRIZE_MAX = 100_000_000
COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
COIN_RULE_KEYS = ("spinEnabled", "spinDepositPerCoin", "couponValidDays")


class WheelInvalid(BadRequest):
    code = "WHEEL_INVALID"

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(field=field)
        # For logs and the operator's shell; the answer names the field only.
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.code} ({self.extra['field']}: {self.reason})"


class WheelSliceCount(BadRequest):
    code = "WHEEL_SLICE_COUNT"

    def __init__(self) -> None:
        super().__init__(field="slices")


class WheelWeightsZero(BadRequest):
    code = "WHEEL_WEIGHTS_ZERO"

    def __init__(self) -> None:
        super().__init__(field="slices")


# --- The arithmetic ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Prize:
    """What the odds need of a slice: its weight and its prize (``key`` names it)."""

    key: str
    weight: int
    prize_type: PrizeType
    prize_amount: int


@dataclass(frozen=True)
class WheelOdds:
    total_weight: int
    # key → weight / total weight (0 for every slice when the total is 0).
    probability: dict[str, Fraction]
    # Σ probability × amount over the credit prizes, minor units per spin.
    expected_payout: Fraction
    # The item prizes with their probabilities: not money, so outside the expected payout.
    item_prizes: list[tuple[str, Fraction]]


def wheel_odds(prizes: Sequence[Prize]) -> WheelOdds:
    """Each slice's exact probability and the expected credit paid per spin."""
    total = sum(max(0, p.weight) for p in prizes)
    probability = {
        p.key: Fraction(max(0, p.weight), total) if total > 0 else Fraction(0) for p in prizes
    }
    expected = sum(
        (probability[p.key] * p.prize_amount for p in prizes if p.prize_type == PrizeType.CREDIT),
        start=Fraction(0),
    )
    items = [(p.key, probability[p.key]) for p in prizes if p.prize_type == PrizeType.ITEM]
    return WheelOdds(
        total_weight=total, probability=probability, expected_payout=expected, item_prizes=items
    )


# --- Reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoinRules:
    spin_enabled: bool
    # Minor units of one deposit per coin, per currency (unset: deposits earn no coins).
    spin_deposit_per_coin: PerCurrency
    coupon_valid_days: int


@dataclass(frozen=True)
class WheelView:
    """The wheel as the editor shows it. ``wheel`` is None before the first save."""

    wheel: Wheel | None
    slices: list[WheelSlice]
    odds: WheelOdds
    coin_rules: CoinRules
    # Slices the last save removed: code → "retired" (spins or coupons name it) or "deleted".
    removed: dict[str, Literal["retired", "deleted"]] = field(default_factory=dict)
    # The currency of the wheel (of the one to be made, before the first save).
    currency: Currency = Currency.THB


def _prizes(slices: Sequence[WheelSlice]) -> list[Prize]:
    return [Prize(s.code, s.weight, PrizeType(s.prize_type), s.prize_amount) for s in slices]


async def _editable_wheel(session: AsyncSession, *, currency: Currency, lock: bool) -> Wheel | None:
    """The wheel members of ``currency`` spin (the newest active one of that currency; each
    currency has its own, ADR 0020), whether or not spinning is enabled."""
    query = (
        select(Wheel)
        .where(Wheel.is_active.is_(True), Wheel.currency == currency)
        .order_by(Wheel.id.desc())
        .limit(1)
    )
    if lock:
        query = query.with_for_update().execution_options(populate_existing=True)
    return (await session.execute(query)).scalar_one_or_none()


async def _live_slices(session: AsyncSession, wheel_id: int) -> list[WheelSlice]:
    query = (
        select(WheelSlice)
        .where(WheelSlice.wheel_id == wheel_id, WheelSlice.retired_at.is_(None))
        .order_by(WheelSlice.position, WheelSlice.id)
        .execution_options(populate_existing=True)
    )
    return list((await session.execute(query)).scalars())


async def _coin_rules(session: AsyncSession) -> CoinRules:
    settings = await load_site_settings(session)
    return CoinRules(
        spin_enabled=settings.spin_enabled,
        spin_deposit_per_coin=settings.spin_deposit_per_coin,
        coupon_valid_days=settings.coupon_valid_days,
    )


async def load_editor(session: AsyncSession, *, currency: Currency = Currency.THB) -> WheelView:
    wheel = await _editable_wheel(session, currency=currency, lock=False)
    slices = [] if wheel is None else await _live_slices(session, wheel.id)
    return WheelView(
        wheel=wheel,
        slices=slices,
        odds=wheel_odds(_prizes(slices)),
        coin_rules=await _coin_rules(session),
        currency=currency,
    )


def snapshot(view: WheelView) -> dict[str, Any]:
    """The wheel for the audit log: one key per slice (``slice:<code>``) so that
    :func:`pao.backoffice.audit.service.changed` keeps just the slices that changed."""
    out: dict[str, Any] = {
        "name": view.wheel.name if view.wheel is not None else None,
        "currency": str(view.currency),
    }
    for s in view.slices:
        out[f"slice:{s.code}"] = {
            "position": s.position,
            "label": s.label,
            "bgColor": s.bg_color,
            "textColor": s.text_color,
            "weight": s.weight,
            "prizeType": str(s.prize_type),
            # A credit prize is money of the wheel's currency; other prizes carry no amount.
            "prizeAmount": recorded(s.prize_amount, view.currency)
            if s.prize_type == PrizeType.CREDIT
            else s.prize_amount,
            "prizeName": s.prize_name,
            "htmlDescription": s.html_description,
        }
    for code, how in view.removed.items():
        out[f"slice:{code}"] = how
    rules = view.coin_rules
    out["spinEnabled"] = rules.spin_enabled
    out["spinDepositPerCoin"] = recorded_each(rules.spin_deposit_per_coin)
    out["couponValidDays"] = rules.coupon_valid_days
    return out


# --- Validating -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SliceIn:
    """A slice as the editor sends it; ``id`` None adds a slice."""

    id: int | None
    label: Mapping[str, str]
    bg_color: str
    text_color: str
    weight: int
    prize_type: PrizeType
    prize_amount: int
    prize_name: Mapping[str, str] = field(default_factory=dict)
    html_description: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Checked:
    id: int | None
    values: dict[str, Any]


def _texts(
    where: str,
    value: Mapping[str, str],
    *,
    html: bool = False,
    max_length: int,
    every_locale: bool,
) -> dict[str, str]:
    model = LocalizedHtml if html else LocalizedText
    try:
        texts = model.model_validate(dict(value)).as_dict()
    except ValidationError as exc:
        raise WheelInvalid(where, exc.errors()[0]["msg"]) from exc
    texts = {locale: text.strip() for locale, text in texts.items() if text.strip()}
    for locale in LOCALES:
        if every_locale and not texts.get(locale):
            raise WheelInvalid(f"{where}.{locale}", "a text is needed in every language")
        if len(texts.get(locale, "")) > max_length:
            raise WheelInvalid(f"{where}.{locale}", f"longer than {max_length} characters")
    return texts


def _colour(where: str, value: str) -> str:
    value = value.strip()
    if not COLOUR.fullmatch(value):
        raise WheelInvalid(where, "a colour is #rgb or #rrggbb")
    return value.lower()


def _check_slice(index: int, item: SliceIn) -> _Checked:
    at = f"slices.{index}"
    if isinstance(item.weight, bool) or not 0 <= item.weight <= WEIGHT_MAX:
        raise WheelInvalid(f"{at}.weight", f"a whole number from 0 to {WEIGHT_MAX}")
    try:
        prize_type = PrizeType(item.prize_type)
    except ValueError as exc:
        raise WheelInvalid(f"{at}.prizeType", "none, credit or item") from exc
    amount = item.prize_amount
    if not 0 <= amount <= PRIZE_MAX:
        raise WheelInvalid(f"{at}.prizeAmount", "from 0 to 1,000,000")
    if prize_type == PrizeType.CREDIT and amount == 0:
        raise WheelInvalid(f"{at}.prizeAmount", "a credit prize pays more than 0")
    if prize_type == PrizeType.NONE and amount != 0:
        raise WheelInvalid(f"{at}.prizeAmount", "a slice without a prize pays nothing")
    return _Checked(
        id=item.id,
        values={
            "label": _texts(f"{at}.label", item.label, max_length=LABEL_MAX, every_locale=True),
            "bg_color": _colour(f"{at}.bgColor", item.bg_color),
            "text_color": _colour(f"{at}.textColor", item.text_color),
            "weight": item.weight,
            "prize_type": prize_type,
            "prize_amount": amount,
            "prize_name": _texts(
                f"{at}.prizeName", item.prize_name, max_length=NAME_MAX, every_locale=False
            ),
            "html_description": _texts(
                f"{at}.htmlDescription",
                item.html_description,
                html=True,
                max_length=HTML_MAX,
                every_locale=False,
            ),
        },
    )


def check_slices(items: Sequence[SliceIn]) -> list[_Checked]:
    """Every slice validated and normalised, or the first refusal (pure: nothing is read or
    written)."""
    if not MIN_SLICES <= len(items) <= MAX_SLICES:
        raise WheelSliceCount()
    checked = [_check_slice(index, item) for index, item in enumerate(items)]
    if sum(c.values["weight"] for c in checked) <= 0:
        raise WheelWeightsZero()
    seen: set[int] = set()
    for index, c in enumerate(checked):
        if c.id is not None:
            if c.id in seen:
                raise WheelInvalid(f"slices.{index}.id", "the same slice twice")
            seen.add(c.id)
    return checked


def check_coin_rules(current: SiteSettings, rules: CoinRules) -> dict[str, Any]:
    """The coin rules validated as the site settings validate them; the stored JSON values."""
    data = current.model_dump(by_alias=True)
    wanted = {
        "spinEnabled": rules.spin_enabled,
        "spinDepositPerCoin": rules.spin_deposit_per_coin.model_dump(),
        "couponValidDays": rules.coupon_valid_days,
    }
    if rules.coupon_valid_days > 3650:
        raise WheelInvalid(field="couponValidDays", reason="at most 3650 days")
    try:
        updated = SiteSettings.model_validate({**data, **wanted})
    except ValidationError as exc:
        first = exc.errors()[0]
        raise WheelInvalid(str(first["loc"][0]), first["msg"]) from exc
    dumped = updated.model_dump(mode="json", by_alias=True)
    return {key: dumped[key] for key in COIN_RULE_KEYS}


# --- Saving -----------------------------------------------------------------------------------


async def _used(session: AsyncSession, slice_id: int) -> bool:
    query = select(
        or_(
            exists().where(WheelSpin.slice_id == slice_id),
            exists().where(WheelCoupon.slice_id == slice_id),
        )
    )
    return bool((await session.execute(query)).scalar())


def _new_code() -> str:
    return "S" + secrets.token_hex(4).upper()


async def save_wheel(
    session: AsyncSession,
    *,
    name: Mapping[str, str],
    slices: Sequence[SliceIn],
    coin_rules: CoinRules | None,
    actor: str,
    currency: Currency = Currency.THB,
) -> WheelView:
    """Replace the wheel's name and slices (in the order given) and, when given, the coin
    rules; everything is validated before anything is written. The caller's transaction
    commits it (the request's unit of work)."""
    texts = _texts("name", name, max_length=NAME_MAX, every_locale=True)
    checked = check_slices(slices)
    settings = await load_site_settings(session)
    stored_rules = check_coin_rules(settings, coin_rules) if coin_rules is not None else {}

    wheel = await _editable_wheel(session, currency=currency, lock=True)
    if wheel is None:
        wheel = Wheel(name=texts, is_active=True, currency=currency)
        session.add(wheel)
        await session.flush()
    live = {s.id: s for s in await _live_slices(session, wheel.id)}
    for index, c in enumerate(checked):
        if c.id is not None and c.id not in live:
            raise WheelInvalid(f"slices.{index}.id", "no such live slice of this wheel")

    removed: dict[str, Literal["retired", "deleted"]] = {}
    kept = {c.id for c in checked if c.id is not None}
    now = utcnow()
    for slice_id, row in live.items():
        if slice_id in kept:
            continue
        if await _used(session, slice_id):
            row.retired_at = now
            removed[row.code] = "retired"
        else:
            await session.delete(row)
            removed[row.code] = "deleted"
    # Retired rows leave the live codes before new slices may take a code.
    await session.flush()

    wheel.name = texts
    for position, c in enumerate(checked):
        if c.id is None:
            session.add(
                WheelSlice(wheel_id=wheel.id, code=_new_code(), position=position, **c.values)
            )
            continue
        row = live[c.id]
        row.position = position
        for key, value in c.values.items():
            setattr(row, key, value)
    for key, value in stored_rules.items():
        if settings.model_dump(mode="json", by_alias=True)[key] != value:
            await set_value(session, key, value, actor=actor)
    await session.flush()

    saved = await _live_slices(session, wheel.id)
    return WheelView(
        wheel=wheel,
        slices=saved,
        odds=wheel_odds(_prizes(saved)),
        coin_rules=await _coin_rules(session),
        removed=removed,
        currency=currency,
    )
