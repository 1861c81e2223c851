"""The operator's texts of promotions, per locale: bonus names and descriptions, banners, the
wheel's name and its slices' labels, descriptions and prize names (ADR 0011).

Writers (:func:`set_bonus_texts`, :func:`set_wheel_name`, :func:`set_slice_texts`) validate
and store a text as ``{locale: text}``; HTML is sanitised on the way in (and again on the way
out). They are what the back office's editors (issue 18) are to call. Readers
take a :class:`pao.core.language.Language` and answer one string per field, so the wire
shapes of spec §7 stay as they were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import NotFound, Unprocessable
from pao.core.language import Language
from pao.kit.i18n import LocalizedText
from pao.promotions.exceptions import NoBonus
from pao.promotions.models import Bonus, Wheel, WheelSlice
from pao.promotions.schemas import BannerOut
from pao.site.content import Banner, LocalizedHtml
from pao.site.sanitize import sanitize_html

# Longest text per locale of each field (characters).
NAME_MAX = 120
DESCRIPTION_MAX = 1000
LABEL_MAX = 60
HTML_MAX = 4000
BANNERS_MAX = 10


class InvalidText(Unprocessable):
    """A text that is too long, not per locale, or a banner that does not validate."""

    def __init__(self, *, field: str, reason: str) -> None:
        # The answer names the field ({"message": "KEY_INVALID", "field": …}) like the
        # request validation's; the reason is for the operator's log and the CLI.
        super().__init__(field=field)
        self.field = field
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.field}: {self.reason}"


def _localized(
    model: type[LocalizedText] | type[LocalizedHtml],
    field: str,
    value: Mapping[str, str] | str,
    *,
    max_length: int,
) -> dict[str, str]:
    """``value`` validated as ``model`` (plain text, or HTML sanitised per language), each
    language within ``max_length``; :class:`InvalidText` names ``field`` otherwise."""
    try:
        texts = model.model_validate(value).as_dict()
    except ValidationError as exc:
        raise InvalidText(field=field, reason=exc.errors()[0]["msg"]) from exc
    for locale, text in texts.items():
        if len(text) > max_length:
            raise InvalidText(
                field=field, reason=f"{locale} is longer than {max_length} characters"
            )
    return texts


def banners_stored(banners: Iterable[Mapping[str, Any] | Banner]) -> list[dict[str, Any]]:
    """Banners validated and normalised for storage (a bonus's ``banners`` column or the
    ``inviteBanners`` / ``refundBanners`` settings)."""
    out = []
    for index, item in enumerate(banners):
        try:
            banner = item if isinstance(item, Banner) else Banner.model_validate(item)
        except ValidationError as exc:
            raise InvalidText(field=f"banners.{index}", reason=exc.errors()[0]["msg"]) from exc
        out.append(
            {"image": banner.image, "html": banner.html.as_dict(), "title": banner.title.as_dict()}
        )
    if len(out) > BANNERS_MAX:
        raise InvalidText(field="banners", reason=f"at most {BANNERS_MAX} banners")
    return out


def bonus_name(name: Mapping[str, str] | str) -> dict[str, str]:
    """A bonus's name validated for storage: a text in at least one locale."""
    texts = _localized(LocalizedText, "name", name, max_length=NAME_MAX)
    if not texts:
        raise InvalidText(field="name", reason="a name needs a text in at least one locale")
    return texts


def bonus_description(description: Mapping[str, str] | str) -> dict[str, str]:
    return _localized(LocalizedText, "description", description, max_length=DESCRIPTION_MAX)


async def _bonus(session: AsyncSession, code: str) -> Bonus:
    bonus = (
        await session.execute(select(Bonus).where(Bonus.code == code.upper()))
    ).scalar_one_or_none()
    if bonus is None:
        raise NoBonus()
    return bonus


async def set_bonus_texts(
    session: AsyncSession,
    *,
    code: str,
    name: Mapping[str, str] | str | None = None,
    description: Mapping[str, str] | str | None = None,
    banners: Iterable[Mapping[str, Any] | Banner] | None = None,
) -> Bonus:
    """Replace the given texts of the bonus or promotion ``code`` (the others stay)."""
    bonus = await _bonus(session, code)
    if name is not None:
        bonus.name = bonus_name(name)
    if description is not None:
        bonus.description = bonus_description(description)
    if banners is not None:
        bonus.banners = banners_stored(banners)
    await session.flush()
    return bonus


async def set_wheel_name(
    session: AsyncSession, *, wheel_id: int, name: Mapping[str, str] | str
) -> Wheel:
    wheel = await session.get(Wheel, wheel_id)
    if wheel is None:
        raise NotFound()
    texts = _localized(LocalizedText, "name", name, max_length=NAME_MAX)
    if not texts:
        raise InvalidText(field="name", reason="a name needs a text in at least one locale")
    wheel.name = texts
    await session.flush()
    return wheel


async def set_slice_texts(
    session: AsyncSession,
    *,
    wheel_id: int,
    code: str,
    label: Mapping[str, str] | str | None = None,
    html_description: Mapping[str, str] | str | None = None,
    prize_name: Mapping[str, str] | str | None = None,
) -> WheelSlice:
    """Replace the given texts of the slice ``code`` of a wheel (the others stay)."""
    slice_ = (
        await session.execute(
            select(WheelSlice).where(WheelSlice.wheel_id == wheel_id, WheelSlice.code == code)
        )
    ).scalar_one_or_none()
    if slice_ is None:
        raise NotFound()
    if label is not None:
        texts = _localized(LocalizedText, "label", label, max_length=LABEL_MAX)
        if not texts:
            raise InvalidText(field="label", reason="a label needs a text in at least one locale")
        slice_.label = texts
    if html_description is not None:
        slice_.html_description = _localized(
            LocalizedHtml, "htmlDescription", html_description, max_length=HTML_MAX
        )
    if prize_name is not None:
        slice_.prize_name = _localized(LocalizedText, "prizeName", prize_name, max_length=NAME_MAX)
    await session.flush()
    return slice_


# --- Reading in one locale -------------------------------------------------------------------


def banners_out(raw: Iterable[Any], language: Language) -> list[BannerOut]:
    """Stored banners in the asked locale; the HTML is sanitised again on the way out."""
    out = []
    for item in raw:
        banner = item if isinstance(item, Banner) else Banner.model_validate(item)
        out.append(
            BannerOut(
                image=banner.image,
                html=sanitize_html(language.pick(banner.html.as_dict())),
                title=language.pick(banner.title.as_dict()),
            )
        )
    return out


def slice_description(slice_: WheelSlice, language: Language) -> str:
    return sanitize_html(language.pick(slice_.html_description))


def prize_name(slice_: WheelSlice, language: Language) -> str:
    """The prize's name, or the slice's label when the prize has none (a "try again")."""
    return language.pick(slice_.prize_name) or language.pick(slice_.label)
