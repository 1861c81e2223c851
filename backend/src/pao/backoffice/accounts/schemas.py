"""Wire shapes of ``/api/backoffice/accounts``: the receiving accounts (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field, StringConstraints, field_validator
from pydantic_core import PydanticCustomError

from pao.backoffice.schemas import _Wire, _WireIn
from pao.kit.money import Currency
from pao.payments.accounts import ReceivingAccount, ReceivingKind, ReceivingMode

Code = Annotated[str, StringConstraints(min_length=1, max_length=20)]
AccountName = Annotated[str, StringConstraints(max_length=100)]
AccountNo = Annotated[str, StringConstraints(max_length=30)]
PromptPayId = Annotated[str, StringConstraints(max_length=20)]
LaoReceiverId = Annotated[str, StringConstraints(max_length=40)]


class AccountOut(_Wire):
    id: int
    kind: ReceivingKind
    code: str
    mode: ReceivingMode
    account_name: str
    account_no: str
    promptpay_id: str | None
    lao_receiver_id: str | None
    currency: str
    active: bool
    created_at: datetime

    @classmethod
    def of(cls, account: ReceivingAccount) -> AccountOut:
        return cls(
            id=account.id,
            kind=account.kind,
            code=account.code,
            mode=account.mode,
            account_name=account.account_name,
            account_no=account.account_no,
            promptpay_id=account.promptpay_id,
            lao_receiver_id=account.lao_receiver_id,
            currency=account.currency,
            active=account.active,
            created_at=account.created_at,
        )


class AccountListOut(_Wire):
    items: list[AccountOut]
    total: int


class AccountCreateIn(_WireIn):
    kind: ReceivingKind
    code: Code = Field(description="Bank code (site banks), WW / PAYTIMZ / PAYONEX, TRUEMONEY.")
    mode: ReceivingMode
    account_name: AccountName = ""
    account_no: AccountNo = ""
    promptpay_id: PromptPayId | None = None
    lao_receiver_id: LaoReceiverId | None = None
    currency: Currency = Currency.THB


_NOT_NULL = ("code", "mode", "account_name", "account_no", "currency", "active")


class AccountUpdateIn(_WireIn):
    """Only the fields sent change; ``null`` clears promptpayId / laoReceiverId and is refused
    for the others."""

    code: Code | None = None
    mode: ReceivingMode | None = None
    account_name: AccountName | None = None
    account_no: AccountNo | None = None
    promptpay_id: PromptPayId | None = None
    lao_receiver_id: LaoReceiverId | None = None
    currency: Currency | None = None
    active: bool | None = Field(default=None, description="false: no longer offered to members.")

    @field_validator(*_NOT_NULL, mode="before")
    @classmethod
    def _not_null(cls, value: object) -> object:
        # A field that exists on every account cannot be "no value": null is a bad request,
        # not a missing field (a fuzzer's {"mode": null} once answered 500).
        if value is None:
            raise PydanticCustomError("KEY_INVALID", "must not be null")
        return value
