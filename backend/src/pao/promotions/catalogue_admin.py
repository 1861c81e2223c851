"""The operator's catalogue of bonuses and promotion codes (the back office's editor, issue 18):
list with usage, create, edit, retire and re-activate.

A bonus is never deleted: its grants (``MemberBonus``) are receipts that reference it and that
``maxReceived`` counts. Retiring sets ``is_active`` false: players no longer see or take it,
grants already made run on. Every rule of a bonus is checked here, on the whole bonus as it
would be after the change, before anything is written; a refusal names the wire field
(:class:`~pao.promotions.exceptions.BonusInvalid`), so the form shows it beside that field,
and leaves the row as it was.

The code (the key players type or the card sends) and the kind are fixed at creation: receipts,
idempotency records and players' bookmarks know a bonus by its code, and a bonus turned into a
promotion code would change the once-per-member rule of the grants it already made.

Players read bonuses from the database on every request (no cache), so a change is visible to
them at the next request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.params import MAX_DB_INT32
from pao.kit.money import MAX_MINOR, Currency, recorded
from pao.promotions.content import banners_stored, bonus_description, bonus_name
from pao.promotions.exceptions import BonusCodeTaken, BonusInvalid, NoBonus
from pao.promotions.models import Bonus, BonusKind, BonusType, MemberBonus, MemberBonusStatus

# Upper-case letters, digits, '-' and '_': what a player can type and a URL path carries as is.
CODE = re.compile(r"[A-Z0-9][A-Z0-9_-]{2,39}")
PERCENT_MAX = 1000  # the table's check constraint: up to ten times the deposit
# The one bound of a count (max received, turnover multiple, total limit; sort order both ways):
# what its INTEGER column holds. Checked here only, each field with its own code; the editor's
# wire publishes it in the contract without checking it again, so a count one over and one far
# over are refused alike.
COUNT_MAX = MAX_DB_INT32


@dataclass(frozen=True)
class BonusDraft:
    """Every editable value of a bonus (amounts in minor units)."""

    name: Mapping[str, str]
    max_amount: int
    type: BonusType = BonusType.LIMIT
    description: Mapping[str, str] = field(default_factory=dict)
    percent: int = 0
    fixed_amount: int = 0
    min_deposit: int = 0
    max_received: int = 1
    turnover_multiplier: int = 1
    percent_fail: int = 10
    total_limit: int | None = None
    banners: list[Mapping[str, Any]] = field(default_factory=list)
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    sort_order: int = 0
    # The currency its amounts are in: offered to members whose wallet is in it only (ADR 0020).
    currency: Currency = Currency.THB


EDITABLE = frozenset(BonusDraft.__dataclass_fields__)


@dataclass(frozen=True)
class Cost:
    currency: str
    amount: int


@dataclass(frozen=True)
class Usage:
    """What a bonus has given: grants by state and their cost per currency."""

    granted: int = 0
    active: int = 0
    cleared: int = 0
    ended: int = 0
    cost: tuple[Cost, ...] = ()


@dataclass(frozen=True)
class CatalogueRow:
    bonus: Bonus
    usage: Usage


def snapshot(bonus: Bonus) -> dict[str, Any]:
    """The bonus as the audit log keeps it (JSON values)."""
    return {
        "code": bonus.code,
        "kind": str(bonus.kind),
        "type": str(bonus.type),
        "name": dict(bonus.name or {}),
        "description": dict(bonus.description or {}),
        "percent": bonus.percent,
        "currency": str(bonus.currency),
        # Amounts with the bonus's currency, so the audit log shows them as money.
        "fixedAmount": recorded(bonus.fixed_amount, bonus.currency),
        "maxAmount": recorded(bonus.max_amount, bonus.currency),
        "minDeposit": recorded(bonus.min_deposit, bonus.currency),
        "maxReceived": bonus.max_received,
        "turnoverMultiplier": bonus.turnover_multiplier,
        "percentFail": bonus.percent_fail,
        "totalLimit": bonus.total_limit,
        "banners": list(bonus.banners or []),
        "validFrom": bonus.valid_from.isoformat() if bonus.valid_from else None,
        "validUntil": bonus.valid_until.isoformat() if bonus.valid_until else None,
        "sortOrder": bonus.sort_order,
        "isActive": bonus.is_active,
    }


# --- reading -----------------------------------------------------------------------------------


async def usage_of(session: AsyncSession, bonus_ids: Iterable[int]) -> dict[int, Usage]:
    """Grants per bonus, by state, and their total cost per currency (one grouped query)."""
    ids = list(bonus_ids)
    if not ids:
        return {}
    query = (
        select(
            MemberBonus.bonus_id,
            MemberBonus.status,
            MemberBonus.currency,
            func.count(),
            func.coalesce(func.sum(MemberBonus.bonus_amount), 0),
        )
        .where(MemberBonus.bonus_id.in_(ids))
        .group_by(MemberBonus.bonus_id, MemberBonus.status, MemberBonus.currency)
    )
    counts: dict[int, dict[str, int]] = {}
    costs: dict[int, dict[str, int]] = {}
    for bonus_id, status, currency, count, total in (await session.execute(query)).all():
        by_state = counts.setdefault(bonus_id, {})
        by_state[status] = by_state.get(status, 0) + int(count)
        by_currency = costs.setdefault(bonus_id, {})
        by_currency[currency] = by_currency.get(currency, 0) + int(total)
    out = {}
    for bonus_id in ids:
        by_state = counts.get(bonus_id, {})
        out[bonus_id] = Usage(
            granted=sum(by_state.values()),
            active=by_state.get(MemberBonusStatus.ACTIVE, 0),
            cleared=by_state.get(MemberBonusStatus.CLEARED, 0),
            ended=by_state.get(MemberBonusStatus.ENDED, 0),
            cost=tuple(
                Cost(currency=c, amount=a) for c, a in sorted(costs.get(bonus_id, {}).items())
            ),
        )
    return out


async def catalogue(session: AsyncSession, *, kind: BonusKind | None = None) -> list[CatalogueRow]:
    """Every bonus (active or retired) of ``kind`` with its usage, in the players' order."""
    query = select(Bonus).order_by(Bonus.is_active.desc(), Bonus.sort_order, Bonus.id)
    if kind is not None:
        query = query.where(Bonus.kind == kind)
    rows = list((await session.execute(query)).scalars())
    usage = await usage_of(session, [b.id for b in rows])
    return [CatalogueRow(bonus=b, usage=usage[b.id]) for b in rows]


async def catalogue_row(session: AsyncSession, bonus: Bonus) -> CatalogueRow:
    return CatalogueRow(bonus=bonus, usage=(await usage_of(session, [bonus.id]))[bonus.id])


async def get_bonus(session: AsyncSession, *, bonus_id: int, for_update: bool = False) -> Bonus:
    query = select(Bonus).where(Bonus.id == bonus_id)
    if for_update:
        # A redemption's atomic claimed_count update waits for this edit (PostgreSQL), so a
        # lowered total limit is checked against the count it will really meet.
        query = query.with_for_update().execution_options(populate_existing=True)
    bonus = (await session.execute(query)).scalar_one_or_none()
    if bonus is None:
        raise NoBonus()
    return bonus


# --- the rules ---------------------------------------------------------------------------------


def normal_code(code: str) -> str:
    """The stored form of a typed code (players' codes are matched upper-cased)."""
    value = code.strip().upper()
    if not CODE.fullmatch(value):
        raise BonusInvalid("BONUS_CODE_INVALID", field="code")
    return value


def _amount(value: int, wire: str, *, positive: bool = False) -> None:
    if value < (1 if positive else 0):
        # The form's unit is the major one: "at least 0.01" reads as "above 0".
        rule = "above" if positive else "min"
        raise BonusInvalid("BONUS_AMOUNT_INVALID", field=wire, rule=rule, min=0)
    if value > MAX_MINOR:
        raise BonusInvalid("BONUS_AMOUNT_INVALID", field=wire, rule="tooLarge")


def _count(value: int, code: str, wire: str, *, minimum: int) -> None:
    if not minimum <= value <= COUNT_MAX:
        raise BonusInvalid(code, field=wire, min=minimum, max=COUNT_MAX)


def check(draft: BonusDraft, *, kind: BonusKind, claimed: int = 0) -> dict[str, Any]:
    """The draft's values ready for the row, or the first rule it breaks."""
    if not any(str(text).strip() for text in draft.name.values()):
        raise BonusInvalid("BONUS_NAME_REQUIRED", field="name")
    name = bonus_name({k: str(v).strip() for k, v in draft.name.items()})
    description = bonus_description(dict(draft.description))
    _amount(draft.fixed_amount, "fixedAmount")
    _amount(draft.min_deposit, "minDeposit")
    _amount(draft.max_amount, "maxAmount", positive=True)
    if not 0 <= draft.percent <= PERCENT_MAX:
        raise BonusInvalid("BONUS_PERCENT_INVALID", field="percent", max=PERCENT_MAX)
    if draft.percent == 0 and draft.fixed_amount == 0:
        # Nothing to give: every activation would be refused (BONUS_CONDITION).
        raise BonusInvalid("BONUS_AMOUNT_INVALID", field="fixedAmount", rule="needsAmount")
    if not 0 <= draft.percent_fail <= 100:
        raise BonusInvalid("BONUS_PERCENT_FAIL_INVALID", field="percentFail")
    _count(draft.turnover_multiplier, "BONUS_TURNOVER_INVALID", "turnoverMultiplier", minimum=1)
    _count(draft.max_received, "BONUS_MAX_RECEIVED_INVALID", "maxReceived", minimum=1)
    if draft.total_limit is not None:
        # Only promotion codes count their grants against a global limit (bonuses.activate).
        if kind != BonusKind.PROMOTION:
            raise BonusInvalid(
                "BONUS_TOTAL_LIMIT_INVALID", field="totalLimit", min=1, max=COUNT_MAX
            )
        _count(draft.total_limit, "BONUS_TOTAL_LIMIT_INVALID", "totalLimit", minimum=1)
        if draft.total_limit < claimed:
            raise BonusInvalid("BONUS_LIMIT_BELOW_CLAIMED", field="totalLimit", claimed=claimed)
    if (
        draft.valid_from is not None
        and draft.valid_until is not None
        and draft.valid_until <= draft.valid_from
    ):
        raise BonusInvalid("BONUS_WINDOW_INVALID", field="validUntil")
    _count(draft.sort_order, "BONUS_SORT_INVALID", "sortOrder", minimum=-COUNT_MAX)
    return {
        "type": BonusType(draft.type),
        "name": name,
        "description": description,
        "percent": draft.percent,
        "fixed_amount": draft.fixed_amount,
        "max_amount": draft.max_amount,
        "min_deposit": draft.min_deposit,
        "max_received": draft.max_received,
        "turnover_multiplier": draft.turnover_multiplier,
        "percent_fail": draft.percent_fail,
        "total_limit": draft.total_limit,
        "banners": banners_stored(draft.banners),
        "valid_from": draft.valid_from,
        "valid_until": draft.valid_until,
        "sort_order": draft.sort_order,
        "currency": Currency(draft.currency),
    }


def draft_of(bonus: Bonus) -> BonusDraft:
    return BonusDraft(
        name=dict(bonus.name or {}),
        max_amount=bonus.max_amount,
        type=BonusType(bonus.type),
        description=dict(bonus.description or {}),
        percent=bonus.percent,
        fixed_amount=bonus.fixed_amount,
        min_deposit=bonus.min_deposit,
        max_received=bonus.max_received,
        turnover_multiplier=bonus.turnover_multiplier,
        percent_fail=bonus.percent_fail,
        total_limit=bonus.total_limit,
        banners=list(bonus.banners or []),
        valid_from=bonus.valid_from,
        valid_until=bonus.valid_until,
        sort_order=bonus.sort_order,
        currency=Currency(bonus.currency),
    )


# --- writing -----------------------------------------------------------------------------------


async def create_bonus(
    session: AsyncSession, *, code: str, kind: BonusKind, draft: BonusDraft
) -> Bonus:
    """A new, active bonus or promotion code."""
    value = normal_code(code)
    values = check(draft, kind=kind)
    taken = await session.execute(select(Bonus.id).where(Bonus.code == value))
    if taken.first() is not None:
        raise BonusCodeTaken()
    bonus = Bonus(code=value, kind=kind, is_active=True, claimed_count=0, **values)
    try:
        # Two editors creating the same code together: the unique index refuses the second.
        async with session.begin_nested():
            session.add(bonus)
            await session.flush()
    except IntegrityError:
        raise BonusCodeTaken() from None
    return bonus


async def edit_bonus(session: AsyncSession, *, bonus_id: int, changes: Mapping[str, Any]) -> Bonus:
    """Change the given editable values (the others stay); the whole result is checked."""
    unknown = set(changes) - EDITABLE
    if unknown:
        raise ValueError(f"not editable: {sorted(unknown)}")
    bonus = await get_bonus(session, bonus_id=bonus_id, for_update=True)
    draft = replace(draft_of(bonus), **changes)
    values = check(draft, kind=BonusKind(bonus.kind), claimed=bonus.claimed_count)
    for key, value in values.items():
        setattr(bonus, key, value)
    await session.flush()
    return bonus


async def set_active(session: AsyncSession, *, bonus_id: int, active: bool) -> Bonus:
    """Retire (players no longer see or take it; grants made run on) or re-activate."""
    bonus = await get_bonus(session, bonus_id=bonus_id, for_update=True)
    bonus.is_active = active
    await session.flush()
    return bonus
