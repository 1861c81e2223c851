"""Money: integer minor units inside, JSON numbers in major units on the wire.

This is the *one* place where wire amounts are converted (ARCHITECTURE.md, money rule 1).
A wire amount is a JSON number (never a string, bool, NaN or infinity) with at most two
decimals; anything else is refused with ``KEY_INVALID`` before a service sees it.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, PlainSerializer, WithJsonSchema
from pydantic_core import PydanticCustomError


class Currency(StrEnum):
    THB = "THB"
    LAK = "LAK"


# ISO 4217: both have two minor digits; LAK is merely *shown* without decimals.
SCALE: dict[Currency, int] = {Currency.THB: 2, Currency.LAK: 2}
MINOR_PER_MAJOR = 100
# 10^13 major units is far beyond any real wallet and keeps every value exact in a float64.
MAX_MINOR = 10**15


def to_minor(amount: Decimal) -> int:
    """Major units (≤ 2 decimals, already validated) → integer minor units."""
    return int(amount.scaleb(2).to_integral_exact())


def to_major(minor: int) -> float:
    """Integer minor units → the JSON number of the wire (exact for |minor| < 2^53)."""
    return float(Decimal(minor).scaleb(-2))


def _parse_wire_amount(value: Any) -> int:
    # Each refusal names its rule (the error's context), for the form to say (pao.core.errors).
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        raise PydanticCustomError("KEY_INVALID", "amount must be a JSON number", {"rule": "number"})
    try:
        # str(float) is the shortest repr that round-trips, so 10.01 stays "10.01".
        amount = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    except InvalidOperation as exc:  # pragma: no cover - Decimal(str(float)) always parses
        raise PydanticCustomError(
            "KEY_INVALID", "amount is not a number", {"rule": "number"}
        ) from exc
    if not amount.is_finite():
        raise PydanticCustomError("KEY_INVALID", "amount must be finite", {"rule": "number"})
    if amount < 0:
        raise PydanticCustomError(
            "KEY_INVALID", "amount must not be negative", {"rule": "min", "min": 0}
        )
    exponent = amount.normalize().as_tuple().exponent
    if isinstance(exponent, int) and exponent < -2:
        raise PydanticCustomError(
            "KEY_INVALID", "amount has more than 2 decimals", {"rule": "decimals", "max": 2}
        )
    minor = to_minor(amount)
    if minor > MAX_MINOR:
        raise PydanticCustomError("KEY_INVALID", "amount is too large", {"rule": "tooLarge"})
    return minor


_AMOUNT_SCHEMA = {
    "type": "number",
    "minimum": 0,
    "multipleOf": 0.01,
    "description": "Major units (baht or kip), at most 2 decimals.",
}

# A request field: the wire number, held as int minor units inside.
WireAmount = Annotated[
    int,
    BeforeValidator(_parse_wire_amount),
    WithJsonSchema(_AMOUNT_SCHEMA, mode="validation"),
    PlainSerializer(to_major, return_type=float, when_used="json"),
]

# A response field: int minor units inside, a number in major units on the wire.
MajorAmount = Annotated[
    int,
    PlainSerializer(to_major, return_type=float),
    WithJsonSchema(
        {"type": "number", "description": "Major units (baht or kip)."}, mode="serialization"
    ),
]


class PerCurrency(BaseModel):
    """One operator amount (a limit, a minimum, a prize …) for each currency, minor units.

    The member's wallet currency picks the value (:meth:`for_currency`); a currency without a
    value (``None``) means what the setting says unset means ("not offered" or "no limit"),
    never another currency's number (ARCHITECTURE.md, money settings are per currency; ADR
    0020). Stored and dumped with every currency's key, ``null`` when unset."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    THB: int | None = Field(default=None, ge=0, le=MAX_MINOR)
    LAK: int | None = Field(default=None, ge=0, le=MAX_MINOR)

    def for_currency(self, currency: Currency | str) -> int | None:
        """The amount for a wallet in ``currency`` (``None``: not set for it)."""
        value: int | None = getattr(self, Currency(currency).value)
        return value

    def replace(self, currency: Currency | str, amount: int | None) -> PerCurrency:
        """A copy with ``currency``'s amount set to ``amount`` (``None`` unsets it)."""
        return self.model_copy(update={Currency(currency).value: amount})

    def items(self) -> list[tuple[Currency, int | None]]:
        return [(currency, self.for_currency(currency)) for currency in Currency]


class AmountsOut(BaseModel):
    """A :class:`PerCurrency` on the wire of an answer: major units per currency, ``null`` for
    a currency without a value."""

    THB: MajorAmount | None = None
    LAK: MajorAmount | None = None

    @classmethod
    def of(cls, amounts: PerCurrency) -> AmountsOut:
        return cls.model_validate(amounts.model_dump())


class AmountsIn(BaseModel):
    """A :class:`PerCurrency` in a request: major units per currency (``null`` unsets one); a
    currency left out keeps its value (:meth:`over`)."""

    model_config = ConfigDict(extra="forbid")

    THB: WireAmount | None = None
    LAK: WireAmount | None = None

    def over(self, current: PerCurrency) -> PerCurrency:
        """``current`` with the currencies this request names replaced."""
        named = {name: getattr(self, name) for name in self.model_fields_set}
        return current.model_copy(update=named)


# ----- amounts in records (the audit log) ------------------------------------------------------
# A record (an audit row's before/after) keeps an amount tagged, in minor units, with its
# currency, so that it can be read back as money and never as a bare number of satang or kip
# cents: ``{"$minor": {"THB": 55500}}`` for one amount, every currency's key for a per-currency
# setting (``null`` where unset). The back office shows it formatted in each currency.
RECORDED = "$minor"


def recorded(amount: int, currency: Currency | str) -> dict[str, dict[str, int | None]]:
    """One amount (minor units) of ``currency`` as a record keeps it."""
    return {RECORDED: {Currency(currency).value: amount}}


def recorded_each(amounts: PerCurrency) -> dict[str, dict[str, int | None]]:
    """A per-currency amount (a money setting) as a record keeps it: every currency's value."""
    return {RECORDED: {currency.value: value for currency, value in amounts.items()}}
