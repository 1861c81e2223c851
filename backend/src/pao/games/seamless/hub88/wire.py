"""Hub88's wallet wire format: request models, the amount unit, user ids and status codes.

Amounts are integers of 1/100000 of the currency unit (``356000`` = 3.56); Pao keeps minor
units (1/100), so one Pao unit is 1000 of Hub88's, and an amount that is not a whole number of
satang/att is refused as the wrong type rather than rounded. Unknown fields are ignored (Hub88
adds optional ones over time).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from pao.games.seamless.core import Status

UNIT_PER_MINOR = 1000

_USER = re.compile(r"m(\d{4,18})")


def user_of(member_id: int) -> str:
    """Pao's user id at Hub88: no personal data, at least 4 characters."""
    return f"m{member_id:04d}"


def member_of(user: str) -> int | None:
    match = _USER.fullmatch(user)
    return int(match.group(1)) if match else None


def to_minor(amount: int) -> int | None:
    if amount < 0 or amount % UNIT_PER_MINOR:
        return None
    return amount // UNIT_PER_MINOR


def from_minor(minor: int) -> int:
    return minor * UNIT_PER_MINOR


_Id = Field(min_length=1, max_length=100)


class Call(BaseModel):
    model_config = ConfigDict(extra="ignore")

    user: str = Field(min_length=1, max_length=40)
    request_uuid: str = Field(min_length=1, max_length=100)


class InfoIn(Call):
    pass


class BalanceIn(Call):
    token: str | None = Field(default=None, max_length=255)
    game_code: str | None = Field(default=None, max_length=100)


class BetIn(Call):
    transaction_uuid: str = _Id
    token: str = Field(min_length=1, max_length=255)
    round: str = _Id
    round_closed: StrictBool = False
    game_code: str = _Id
    currency: str = Field(min_length=3, max_length=3)
    amount: StrictInt
    supplier_transaction_id: str | None = Field(default=None, max_length=100)
    is_free: StrictBool | None = None


class WinIn(BetIn):
    reference_transaction_uuid: str = _Id


class RollbackIn(Call):
    transaction_uuid: str = _Id
    reference_transaction_uuid: str = _Id
    token: str | None = Field(default=None, max_length=255)
    round: str = _Id
    round_closed: StrictBool = False
    game_code: str = _Id


# Hub88's codes for the core's outcomes (ADR 0025 for the choices providers.md leaves open).
STATUS: dict[Status, str] = {
    Status.OK: "RS_OK",
    Status.NOT_ENOUGH_MONEY: "RS_ERROR_NOT_ENOUGH_MONEY",
    Status.DUPLICATE: "RS_ERROR_DUPLICATE_TRANSACTION",
    Status.UNKNOWN_BET: "RS_ERROR_TRANSACTION_DOES_NOT_EXIST",
    Status.ROLLED_BACK: "RS_ERROR_TRANSACTION_ROLLED_BACK",
    Status.SETTLED: "RS_ERROR_UNKNOWN",
    Status.USER_DISABLED: "RS_ERROR_USER_DISABLED",
    Status.LIMIT_REACHED: "RS_ERROR_LIMIT_REACHED",
    Status.WRONG_CURRENCY: "RS_ERROR_WRONG_CURRENCY",
    Status.UNKNOWN_USER: "RS_ERROR_UNKNOWN",
}
INVALID_SIGNATURE = "RS_ERROR_INVALID_SIGNATURE"
WRONG_SYNTAX = "RS_ERROR_WRONG_SYNTAX"
WRONG_TYPES = "RS_ERROR_WRONG_TYPES"
INVALID_TOKEN = "RS_ERROR_INVALID_TOKEN"
TOKEN_EXPIRED = "RS_ERROR_TOKEN_EXPIRED"
INVALID_GAME = "RS_ERROR_INVALID_GAME"
WRONG_CURRENCY = "RS_ERROR_WRONG_CURRENCY"
UNKNOWN = "RS_ERROR_UNKNOWN"
