"""Common Flow's wire format: the envelope and txns, decimal baht amounts, status codes.

Amounts are JSON numbers of baht (``10.5``); Pao keeps satang, and an amount with more than two
decimals is refused as malformed rather than rounded.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from pao.games.seamless.core import Status

_Id = Field(min_length=1, max_length=80)


def to_minor(amount: float | int | None) -> int | None:
    if amount is None:
        return 0
    try:
        value = Decimal(str(amount)) * 100
    except InvalidOperation:
        return None
    if value < 0 or value != value.to_integral_value():
        return None
    return int(value)


def to_major(minor: int) -> float:
    return minor / 100


class Txn(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = _Id
    status: str = Field(max_length=20)
    round_id: str = Field(alias="roundId", min_length=1, max_length=80)
    bet_amount: float | None = Field(default=None, alias="betAmount", ge=0)
    payout_amount: float | None = Field(default=None, alias="payoutAmount", ge=0)
    game_code: str = Field(default="", alias="gameCode", max_length=80)
    skip_balance_update: StrictBool = Field(default=False, alias="skipBalanceUpdate")
    is_single_state: StrictBool = Field(default=False, alias="isSingleState")
    is_end_round: StrictBool = Field(default=False, alias="isEndRound")
    transaction_type: Literal["BY_TRANSACTION", "BY_ROUND"] = Field(
        default="BY_TRANSACTION", alias="transactionType"
    )


class Envelope(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = _Id
    timestamp_millis: int | None = Field(default=None, alias="timestampMillis")
    product_id: str = Field(alias="productId", min_length=1, max_length=40)
    currency: str = Field(min_length=3, max_length=3)
    username: str = Field(min_length=1, max_length=40)
    txns: list[Txn] = Field(default_factory=list, max_length=100)


class BalanceCall(BaseModel):
    model_config = ConfigDict(extra="ignore")

    id: str = _Id
    product_id: str = Field(alias="productId", min_length=1, max_length=40)
    currency: str = Field(min_length=3, max_length=3)
    username: str = Field(min_length=1, max_length=40)
    game_code: str | None = Field(default=None, alias="gameCode", max_length=80)
    session_token: str | None = Field(default=None, alias="sessionToken", max_length=255)


OK = 0
USER_NOT_FOUND = 10001
INSUFFICIENT = 10002
NOT_FOUND = 20001
DUPLICATE = 20002
CANCELLED = 20003
SETTLED = 20004
INVALID_SIGNATURE = 30002
FORBIDDEN = 40003
INTERNAL = 50001

STATUS: dict[Status, int] = {
    Status.OK: OK,
    Status.NOT_ENOUGH_MONEY: INSUFFICIENT,
    Status.DUPLICATE: DUPLICATE,
    Status.UNKNOWN_BET: NOT_FOUND,
    Status.ROLLED_BACK: CANCELLED,
    Status.SETTLED: SETTLED,
    Status.USER_DISABLED: FORBIDDEN,
    Status.LIMIT_REACHED: FORBIDDEN,
    Status.WRONG_CURRENCY: FORBIDDEN,
    Status.UNKNOWN_USER: USER_NOT_FOUND,
}
