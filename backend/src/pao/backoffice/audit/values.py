"""Money in the audit log: written tagged with its currency, read back as money.

A row's ``before``/``after`` keep an amount as :func:`pao.kit.money.recorded` makes it
(``{"$minor": {"THB": 55500}}``, minor units); the API answers it as ``{"$money": {"THB":
555.0}}`` (major units, like every amount on the wire), which the back office formats in its
currency (kip without decimals). A per-currency setting has every currency's key (``null``
where unset).

Rows written before amounts were tagged held bare numbers: :func:`wire_values` reads them by
what each action wrote then (adjustments and slips: minor units beside a ``currency``; a
payment match: major units beside it; settings: a money setting's minor units, baht before
settings were per currency, ADR 0020; bonuses: minor units of the currency the row names;
wheels: minor units of a wheel whose currency the row did not name), so an old row shows money
too. An old amount whose currency cannot be known is
answered under ``XXX`` (ISO 4217: no currency): shown as an amount, without a unit.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from pao.kit.money import RECORDED, Currency, to_major
from pao.site.editor import Kind, kind_of

MONEY = "$money"
NO_CURRENCY = "XXX"
_CURRENCIES = frozenset(currency.value for currency in Currency)
# Bonus amounts (minor units of the bonus's currency) in a promotion's snapshot.
_BONUS_AMOUNTS = ("fixedAmount", "maxAmount", "minDeposit")


def is_amount(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tagged(minor: Mapping[str, int | None]) -> dict[str, Any]:
    return {RECORDED: dict(minor)}


def settings_recorded(values: Mapping[str, Any]) -> dict[str, Any]:
    """Settings as the audit log keeps them: each money setting tagged (its amount per
    currency), the others as they are."""
    return {key: _setting(key, value) for key, value in values.items()}


def _setting(key: str, value: Any) -> Any:
    return _per_currency(value) if kind_of(key) is Kind.MONEY else value


def _per_currency(value: Any) -> Any:
    """A bare per-currency amount tagged (a bare number: the baht amount of before ADR 0020)."""
    if is_amount(value):
        return _tagged({Currency.THB.value: value})
    if isinstance(value, dict) and set(value) <= _CURRENCIES:
        return _tagged(value)
    return value


def _with_currency(values: dict[str, Any], key: str, *, major: bool = False) -> None:
    """An old row's bare amount under ``key`` with the ``currency`` beside it, tagged (the
    currency folded into the amount)."""
    amount = values.get(key)
    currency = values.get("currency")
    if isinstance(amount, bool) or not isinstance(amount, int | float):
        return
    minor = int(Decimal(str(amount)).scaleb(2)) if major else int(amount)
    if isinstance(currency, str) and currency in _CURRENCIES:
        values[key] = _tagged({currency: minor})
        del values["currency"]
    else:
        values[key] = _tagged({NO_CURRENCY: minor})


def _legacy(action: str, values: dict[str, Any]) -> dict[str, Any]:
    """An old row's bare amounts tagged by what ``action`` wrote before they were."""
    if action.startswith("settings."):
        return settings_recorded(values)
    if action.startswith("adjustment.") or action == "deposit.slip.approve":
        _with_currency(values, "amount")
    elif action == "deposit.payment.match":
        _with_currency(values, "amount", major=True)
    elif action.startswith("promotion."):
        # A whole bonus names its currency; an edit kept only what changed, so its currency is
        # unknown (a kip bonus could be edited once amounts were per currency).
        currency = values.get("currency", NO_CURRENCY)
        for key in _BONUS_AMOUNTS:
            if is_amount(values.get(key)):
                values[key] = _tagged({str(currency): values[key]})
    elif action == "wheel.update":
        if "spinDepositPerCoin" in values:
            values["spinDepositPerCoin"] = _per_currency(values["spinDepositPerCoin"])
        for key, slice_ in values.items():
            # A prize's currency is the wheel's, which an old row did not name.
            credit = isinstance(slice_, dict) and slice_.get("prizeType") == "credit"
            if key.startswith("slice:") and credit and is_amount(slice_.get("prizeAmount")):
                slice_["prizeAmount"] = _tagged({NO_CURRENCY: slice_["prizeAmount"]})
    return values


def _wire(value: Any) -> Any:
    """Tagged amounts (anywhere in ``value``) in major units under ``$money``."""
    if isinstance(value, dict):
        minor = value.get(RECORDED)
        if len(value) == 1 and isinstance(minor, dict):
            return {
                MONEY: {
                    str(code): to_major(amount) if is_amount(amount) else None
                    for code, amount in minor.items()
                }
            }
        return {key: _wire(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_wire(item) for item in value]
    return value


def wire_values(action: str, values: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A row's ``before`` or ``after`` as the API answers it: every amount as ``$money``."""
    if values is None:
        return None
    upgraded = _legacy(action, _copy(values))
    result: dict[str, Any] = _wire(upgraded)
    return result


def _copy(values: Mapping[str, Any]) -> dict[str, Any]:
    """A deep enough copy (the row's JSON is left as loaded)."""
    return {key: _copy(item) if isinstance(item, Mapping) else item for key, item in values.items()}
