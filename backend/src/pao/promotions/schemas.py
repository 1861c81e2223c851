"""Wire shapes of the promotion calls (spec §3 and §7), with the contract's field names."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pao.kit.money import MajorAmount
from pao.promotions.models import BonusType, CouponStatus, PrizeType


class _Wire(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class BannerOut(_Wire):
    image: str
    html: str = Field(description="Sanitised HTML, in the requested locale.")
    title: str = Field(
        default="",
        description="Short text of the banner (the image's alternative text), in the requested "
        "locale; empty when the operator wrote none.",
    )


class ReceivedOut(_Wire):
    updated_at: datetime = Field(alias="updatedAt", description="When it was received.")


class UserBonusOut(_Wire):
    id: str = Field(alias="_id")
    is_active: bool = Field(alias="isActive")
    received: list[ReceivedOut] = Field(description="Every receipt of this bonus, newest first.")


class BonusItem(_Wire):
    code: str
    type: BonusType
    name: str
    description: str
    max_received: int = Field(alias="maxReceived")
    percent_fail: int = Field(alias="percentFail")
    percent: int = Field(description="Percent of the qualifying deposit (0: fixed amount).")
    fixed_amount: MajorAmount = Field(alias="fixedAmount")
    max_amount: MajorAmount = Field(alias="maxAmount")
    min_deposit: MajorAmount = Field(alias="minDeposit")
    turnover_multiplier: int = Field(alias="turnoverMultiplier")
    banners: list[BannerOut]
    user_bonus: UserBonusOut | None = Field(alias="userBonus")


class GrantOut(_Wire):
    """The user bonus just granted (``GET /api/bonus/activate/{code}``)."""

    id: str = Field(alias="_id")
    code: str
    type: BonusType
    is_active: bool = Field(alias="isActive")
    amount: MajorAmount
    deposit: MajorAmount
    turnover_required: MajorAmount = Field(alias="turnoverRequired")
    percent_fail: int = Field(alias="percentFail")
    received: list[ReceivedOut]


class ActiveCheckOut(_Wire):
    status: bool = Field(description="A bonus is active.")
    type: BonusType | None = None
    code: str | None = None
    name: str | None = None
    amount: MajorAmount | None = None
    turnover: MajorAmount | None = None
    turnover_required: MajorAmount | None = Field(default=None, alias="turnoverRequired")
    percent_fail: int | None = Field(default=None, alias="percentFail")
    can_clear: bool | None = Field(
        default=None, alias="canClear", description="Turnover met or balance under percentFail."
    )


class MinimumOut(_Wire):
    status: bool = Field(description="A deposit is waiting to qualify for a bonus.")
    amount: MajorAmount = Field(description="That deposit (0 when none).")


class MessageOut(_Wire):
    message: str


class MoneyMessageOut(_Wire):
    message: str
    amount: MajorAmount


class PromotionOut(_Wire):
    """A promotion code, or ``{}`` when there is none."""

    code: str | None = None
    percent_fail: int | None = Field(default=None, alias="percentFail")
    description: str | None = None


class InviteFrom(_Wire):
    name: str


class InviteLineOut(_Wire):
    from_: InviteFrom = Field(alias="from")
    amount: MajorAmount
    created_at: datetime = Field(alias="createdAt")


class InvitesOut(_Wire):
    total: int
    invites: list[InviteLineOut]


class RefundLineOut(_Wire):
    refund_amount: MajorAmount = Field(alias="refundAmount")
    status: str
    created_at: datetime = Field(alias="createdAt")


class RefundsOut(_Wire):
    total: int
    refunds: list[RefundLineOut]


class RefundInfo(_Wire):
    period: Literal["day", "week"]
    period_start: datetime = Field(alias="periodStart")
    percent: float = Field(description="The refund rate in percent (basis points / 100).")
    net_loss: MajorAmount = Field(alias="netLoss")
    minimum: MajorAmount
    enabled: bool


class RefundCheckOut(_Wire):
    result: bool = Field(description="A refund can be received now.")
    bonus: bool = Field(description="hasBonus: an active bonus blocks refunds.")
    info: RefundInfo
    refund_amount: MajorAmount = Field(alias="refundAmount", description="Receivable now.")
    refund_success: MajorAmount = Field(
        alias="refundSuccess", description="Received, waiting to be added to the wallet."
    )
    refund_fail: MajorAmount = Field(
        alias="refundFail", description="This period's refund cut off by the period cap."
    )


class SliceOut(_Wire):
    code: str
    label: str
    bg_color: str = Field(alias="bgColor")
    text_color: str = Field(alias="textColor")
    html_description: str = Field(alias="htmlDescription", description="Sanitised HTML.")


class OddsOut(_Wire):
    code: str
    label: str
    probability: float = Field(description="Chance of this slice per spin, 0 to 1.")


class WheelSetupOut(_Wire):
    name: str
    slice: list[SliceOut]
    user_coin: int = Field(alias="userCoin")
    odds: list[OddsOut]


class SpinResult(_Wire):
    code: str
    label: str
    index: int = Field(description="Position of the slice in setup.slice.")
    remaining_coin: int = Field(alias="remainingCoin")
    coupon: str | None = Field(description="The coupon code of a prize, else null.")


class SpinOut(_Wire):
    success: bool
    result: SpinResult
    error: str | None = None


class CouponSlice(_Wire):
    code: str
    label: str
    # The coupon's own slice's, retired or not: a code may be given to a new slice later.
    html_description: str = Field(alias="htmlDescription", description="Sanitised HTML.")


class CouponPrize(_Wire):
    name: str
    slice: CouponSlice


class CouponOut(_Wire):
    id: str = Field(alias="_id")
    coupon: str = Field(description="The code to claim with.")
    prize: CouponPrize
    type: PrizeType
    amount: MajorAmount
    status: CouponStatus
    claimable: bool
    expires_at: datetime = Field(alias="expiresAt")
    created_at: datetime = Field(alias="createdAt")


class ClaimIn(_Wire):
    coupon: str = Field(min_length=1, max_length=40)


class ClaimOut(_Wire):
    message: str
    prize: CouponPrize
    amount: MajorAmount


class ActiveOut(_Wire):
    is_active: bool = Field(alias="isActive")
