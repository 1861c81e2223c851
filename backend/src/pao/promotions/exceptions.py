"""Refusals of the promotions domain, one class per catalogue code (spec §8)::

BadRequest (400)
 ├── BonusRemaining        BONUS_REMAINING       an active bonus forbids it
 ├── BonusAlreadyActive    BONUS_ALREADY_ACTIVE
 ├── BonusMaxClaimed       BONUS_MAX_CLAIMED     maxReceived reached in the period
 ├── BonusCondition        BONUS_CONDITION       condition unmet (no qualifying deposit,
 │                                               turnover not reached)
 ├── BonusFull             BONUS_FULL            the promotion code's global limit
 ├── NoPromotion           NO_PROMOTION
 ├── PromotionReceived     PROMOTION_RECEIVED
 ├── InviteInactive        INVITE_INACTIVE
 ├── NoInviteBonus         NO_INVITE_BONUS
 ├── RefundInactive        REFUND_INACTIVE
 ├── RefundCondition       REFUND_CONDITION      a bonus is active (hasBonus)
 ├── NoRefund              NO_REFUND             no net loss / nothing received
 ├── RefundMinimum         REFUND_MINIMUM        receivable below the minimum
 ├── SpinInactive          SPIN_INACTIVE
 ├── NoCoin                NO_COIN
 ├── NoClaimableCoupon     NO_CLAIMABLE_COUPON
 ├── InvalidPrizeCode      INVALID_PRIZE_CODE
 ├── InvalidCode           INVALID_CODE
 ├── InvalidCouponType     INVALID_COUPON_TYPE
 └── CouponExpired         COUPON_EXPIRED
NotFound (404)
 └── NoBonus               NO_DATA               no such (active) bonus
Conflict (409)
 └── BonusCodeTaken        BONUS_CODE_TAKEN      the editor: another bonus or code has it
Unprocessable (422), the editor's refusals, each naming the wire ``field``:
 └── BonusInvalid          BONUS_CODE_INVALID | BONUS_AMOUNT_INVALID | BONUS_PERCENT_INVALID
                           | BONUS_PERCENT_FAIL_INVALID | BONUS_TURNOVER_INVALID
                           | BONUS_MAX_RECEIVED_INVALID | BONUS_TOTAL_LIMIT_INVALID
                           | BONUS_LIMIT_BELOW_CLAIMED | BONUS_NAME_REQUIRED
                           | BONUS_WINDOW_INVALID | BONUS_SORT_INVALID
"""

from __future__ import annotations

from pao.core.errors import BadRequest, Conflict, NotFound, Unprocessable


class BonusRemaining(BadRequest):
    code = "BONUS_REMAINING"


class BonusAlreadyActive(BadRequest):
    code = "BONUS_ALREADY_ACTIVE"


class BonusMaxClaimed(BadRequest):
    code = "BONUS_MAX_CLAIMED"


class BonusDeviceClaimed(BadRequest):
    """A once-in-a-lifetime bonus another member already received on this device."""

    code = "BONUS_DEVICE_CLAIMED"


class BonusCondition(BadRequest):
    code = "BONUS_CONDITION"


class BonusFull(BadRequest):
    code = "BONUS_FULL"


class NoPromotion(BadRequest):
    code = "NO_PROMOTION"


class PromotionReceived(BadRequest):
    code = "PROMOTION_RECEIVED"


class NoBonus(NotFound):
    code = "NO_DATA"


class InviteInactive(BadRequest):
    code = "INVITE_INACTIVE"


class NoInviteBonus(BadRequest):
    code = "NO_INVITE_BONUS"


class RefundInactive(BadRequest):
    code = "REFUND_INACTIVE"


class RefundCondition(BadRequest):
    code = "REFUND_CONDITION"


class NoRefund(BadRequest):
    code = "NO_REFUND"


class RefundMinimum(BadRequest):
    code = "REFUND_MINIMUM"


class SpinInactive(BadRequest):
    code = "SPIN_INACTIVE"


class NoCoin(BadRequest):
    code = "NO_COIN"


class NoClaimableCoupon(BadRequest):
    code = "NO_CLAIMABLE_COUPON"


class InvalidPrizeCode(BadRequest):
    code = "INVALID_PRIZE_CODE"


class InvalidCode(BadRequest):
    code = "INVALID_CODE"


class InvalidCouponType(BadRequest):
    code = "INVALID_COUPON_TYPE"


class CouponExpired(BadRequest):
    code = "COUPON_EXPIRED"


class BonusCodeTaken(Conflict):
    """The editor: a bonus or promotion code (active or retired) already has this code."""

    code = "BONUS_CODE_TAKEN"

    def __init__(self) -> None:
        super().__init__(field="code")


class BonusInvalid(Unprocessable):
    """The editor: a value breaks a rule of the bonus; ``field`` names it (camelCase, as on
    the wire) so the form shows the error next to it."""

    def __init__(self, code: str, *, field: str, **extra: int | str) -> None:
        super().__init__(code, keeps_changes=False, field=field, **extra)
        self.field = field
