"""SCB's payment confirmation (SCB → Pao, providers.md §6 [B4]) and Pao's reply [B7].

The callback is not signed (none documented: UNCONFIRMED), so what it says is only a *claim*:
Pao keeps it, deduplicated by SCB's ``transactionId``, and credits nothing until SCB's inquiry
API confirms the same payment (ADR 0029). This module only reads the body and writes the reply.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from pao.payments.slips.providers.wire import amount_minor, aware

# SCB's own reply code for "received" [B7].
RECEIVED = "00"


class ScbConfirmation(BaseModel):
    """The fields Pao reads; SCB sends more (payee and payer proxies, channel), ignored."""

    model_config = ConfigDict(populate_by_name=True, extra="ignore")

    transaction_id: str = Field(alias="transactionId", min_length=1, max_length=60)
    amount: int  # satang (a string in SCB's table, a number in practice: both read)
    paid_at: datetime = Field(alias="transactionDateandTime")
    currency_code: str = Field(default="764", alias="currencyCode", max_length=3)
    ref1: str = Field(alias="billPaymentRef1", min_length=1, max_length=20)
    ref2: str = Field(default="", alias="billPaymentRef2", max_length=20)
    ref3: str = Field(default="", alias="billPaymentRef3", max_length=20)
    biller_id: str = Field(default="", alias="payeeProxyId", max_length=20)
    sending_bank: str = Field(default="", alias="sendingBankCode", max_length=3)
    payer_account: str = Field(default="", alias="payerAccountNumber", max_length=34)
    payer_name: str = Field(default="", alias="payerName", max_length=100)

    @field_validator("amount", mode="before")
    @classmethod
    def _amount(cls, value: Any) -> int:
        if isinstance(value, float):
            # A JSON number with a fraction: read from its text, never as a float.
            value = repr(value)
        minor = amount_minor(value)
        if minor <= 0:
            raise ValueError("amount must be positive")
        return minor

    @field_validator("paid_at", mode="before")
    @classmethod
    def _paid_at(cls, value: Any) -> datetime:
        return aware(value)


class NotAConfirmation(ValueError):
    """The body is not a payment confirmation Pao can read."""


def read_confirmation(raw: bytes) -> ScbConfirmation:
    try:
        return ScbConfirmation.model_validate_json(raw)
    except ValidationError:
        raise NotAConfirmation("not an SCB payment confirmation") from None


def reply(transaction_id: str, confirm_id: str) -> dict[str, str]:
    """What SCB expects back: received (whatever Pao later finds), its id echoed, ours."""
    return {
        "resCode": RECEIVED,
        "resDesc": "success",
        "transactionId": transaction_id,
        "confirmId": confirm_id,
    }
