"""``/api/backoffice/wheel``: the prize wheel editor. A manager reads the wheel (every slice
with its weight, probability and prize, the expected payout per spin, the coin rules) and saves
its name, slices and coin rules in one change. The rules live in
:mod:`pao.promotions.wheel_editor`; the route checks ``promotions.manage`` and writes the audit
row with the wheel before and after (only what changed)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request
from pydantic import Field, StringConstraints

from pao.backoffice.audit import service as audit
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import MAX_BODY_ID, MAX_DB_INT32
from pao.core.uow import SessionDep
from pao.kit.money import AmountsIn, AmountsOut, Currency, MajorAmount, WireAmount
from pao.promotions import wheel_editor
from pao.promotions.models import PrizeType, WheelSlice
from pao.promotions.wheel_editor import CoinRules, SliceIn, WheelView
from pao.site.settings import load_site_settings

router = backoffice_router()

Manager = Annotated[Staff, Depends(require(Permission.PROMOTIONS_MANAGE))]
OBJECT = "wheel"
Texts = dict[str, Annotated[str, StringConstraints(max_length=5000)]]
Colour = Annotated[str, StringConstraints(max_length=20)]


class WheelSliceOut(_Wire):
    id: int
    code: str = Field(description="The slice's code, as players' odds and coupons name it.")
    label: dict[str, str]
    bg_color: str
    text_color: str
    weight: int
    probability: float = Field(description="weight / total weight, 0 to 1.")
    prize_type: PrizeType
    prize_amount: MajorAmount
    prize_name: dict[str, str]
    html_description: dict[str, str] = Field(description="Sanitised HTML per language.")


class WheelItemPrizeOut(_Wire):
    code: str
    probability: float


class WheelCoinRulesOut(_Wire):
    spin_enabled: bool
    spin_deposit_per_coin: AmountsOut = Field(
        description="One coin per this much deposited, per currency (null: a deposit in that "
        "currency earns no coins)."
    )
    coupon_valid_days: Annotated[int, Field(ge=-MAX_DB_INT32, le=MAX_DB_INT32)]


class WheelEditorOut(_Wire):
    id: int | None = Field(description="None until the first save.")
    currency: Currency = Field(description="The currency of its credit prizes.")
    name: dict[str, str]
    slices: list[WheelSliceOut]
    total_weight: int
    expected_payout: float = Field(
        description="Credit paid per spin on average, major units: Σ probability × credit "
        "prize. Item prizes are listed apart (itemPrizes)."
    )
    item_prizes: list[WheelItemPrizeOut]
    coin_rules: WheelCoinRulesOut
    min_slices: int
    max_slices: int

    @classmethod
    def of(cls, view: WheelView) -> WheelEditorOut:
        odds = view.odds

        def one(s: WheelSlice) -> WheelSliceOut:
            return WheelSliceOut(
                id=s.id,
                code=s.code,
                label=s.label,
                bg_color=s.bg_color,
                text_color=s.text_color,
                weight=s.weight,
                probability=float(odds.probability[s.code]),
                prize_type=s.prize_type,
                prize_amount=s.prize_amount,
                prize_name=s.prize_name,
                html_description=s.html_description,
            )

        rules = view.coin_rules
        return cls(
            id=view.wheel.id if view.wheel is not None else None,
            currency=view.currency,
            name=view.wheel.name if view.wheel is not None else {},
            slices=[one(s) for s in view.slices],
            total_weight=odds.total_weight,
            # Minor units → major, kept to 4 decimals: an average, not an amount paid.
            expected_payout=round(float(odds.expected_payout) / 100, 4),
            item_prizes=[
                WheelItemPrizeOut(code=k, probability=float(p)) for k, p in odds.item_prizes
            ],
            coin_rules=WheelCoinRulesOut(
                spin_enabled=rules.spin_enabled,
                spin_deposit_per_coin=AmountsOut.of(rules.spin_deposit_per_coin),
                coupon_valid_days=rules.coupon_valid_days,
            ),
            min_slices=wheel_editor.MIN_SLICES,
            max_slices=wheel_editor.MAX_SLICES,
        )


class WheelSliceIn(_WireIn):
    id: int | None = Field(
        default=None, ge=1, le=MAX_BODY_ID, description="An existing live slice; none adds one."
    )
    label: Texts
    bg_color: Colour
    text_color: Colour
    weight: Annotated[int, Field(ge=-MAX_DB_INT32, le=MAX_DB_INT32)] = Field(
        description="0 or more; a slice of weight 0 is never drawn."
    )
    prize_type: PrizeType
    prize_amount: WireAmount = 0
    prize_name: Texts = Field(default_factory=dict)
    html_description: Texts = Field(default_factory=dict)


class WheelCoinRulesIn(_WireIn):
    spin_enabled: bool
    spin_deposit_per_coin: AmountsIn = Field(
        description="Per currency; a currency left out keeps its value."
    )
    coupon_valid_days: Annotated[int, Field(ge=-MAX_DB_INT32, le=MAX_DB_INT32)]


class WheelEditorIn(_WireIn):
    name: Texts
    slices: list[WheelSliceIn] = Field(max_length=100)
    coin_rules: WheelCoinRulesIn | None = Field(default=None, description="Unchanged when absent.")


# Each currency has its own wheel (its credit prizes are in it; ADR 0020).
WheelCurrency = Annotated[
    Currency, Query(description="The wheel of this currency (its members spin it).")
]


@router.get(
    "/wheel",
    operation_id="backofficeWheel",
    response_model=WheelEditorOut,
    responses=AUTHENTICATED,
    summary="The prize wheel with each slice's probability, the expected payout, coin rules",
)
async def read_wheel(
    session: SessionDep, staff: Manager, currency: WheelCurrency = Currency.THB
) -> WheelEditorOut:
    return WheelEditorOut.of(await wheel_editor.load_editor(session, currency=currency))


@router.put(
    "/wheel",
    operation_id="backofficeWheelSave",
    response_model=WheelEditorOut,
    responses={
        **AUTHENTICATED,
        **errors(_400="WHEEL_INVALID | WHEEL_SLICE_COUNT | WHEEL_WEIGHTS_ZERO"),
        **VALIDATION,
    },
    summary="Save the wheel's name, slices (in order) and coin rules in one change",
)
async def save_wheel(
    body: WheelEditorIn,
    request: Request,
    session: SessionDep,
    staff: Manager,
    currency: WheelCurrency = Currency.THB,
) -> WheelEditorOut:
    actor = actor_of(request)
    before = wheel_editor.snapshot(await wheel_editor.load_editor(session, currency=currency))
    view = await wheel_editor.save_wheel(
        session,
        currency=currency,
        name=body.name,
        slices=[
            SliceIn(
                id=s.id,
                label=s.label,
                bg_color=s.bg_color,
                text_color=s.text_color,
                weight=s.weight,
                prize_type=s.prize_type,
                prize_amount=s.prize_amount,
                prize_name=s.prize_name,
                html_description=s.html_description,
            )
            for s in body.slices
        ],
        coin_rules=CoinRules(
            spin_enabled=body.coin_rules.spin_enabled,
            spin_deposit_per_coin=body.coin_rules.spin_deposit_per_coin.over(
                (await load_site_settings(session)).spin_deposit_per_coin
            ),
            coupon_valid_days=body.coin_rules.coupon_valid_days,
        )
        if body.coin_rules is not None
        else None,
        actor=actor.label,
    )
    old, new = audit.changed(before, wheel_editor.snapshot(view))
    await audit.record(
        session,
        actor=actor,
        action="wheel.update",
        object_type=OBJECT,
        object_id=view.wheel.id if view.wheel is not None else None,
        before=old,
        after=new,
    )
    return WheelEditorOut.of(view)
