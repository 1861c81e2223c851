"""Wire shapes of QR deposits (spec §3 "QR state", §7 QR calls) and of the bank's
notification."""

from __future__ import annotations

from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

from pao.core.params import RequestModel
from pao.kit.money import Currency, MajorAmount, WireAmount


class QrCreate(RequestModel):
    model_config = ConfigDict(populate_by_name=True)

    amount: WireAmount


class QrState(BaseModel):
    """``hasQrcode`` false (and the rest null) when there is no QR to show."""

    model_config = ConfigDict(populate_by_name=True)

    qrcode_id: str | None = Field(default=None, alias="qrcodeId")
    has_qrcode: bool = Field(alias="hasQrcode")
    qrcode: str | None = Field(default=None, description="The QR as SVG markup.")
    payload: str | None = Field(
        default=None, description="The QR's text (EMVCo payload), for copy and paste."
    )
    amount: MajorAmount | None = Field(
        default=None, description="The exact amount to pay (may exceed the requested one)."
    )
    expire_in: int | None = Field(
        default=None, alias="expireIn", description="Expiry as epoch milliseconds."
    )


class QrProgress(BaseModel):
    """Where one of the member's QRs stands, asked while it is on screen: ``paid`` once its
    money was credited (then it can no longer be cancelled)."""

    model_config = ConfigDict(populate_by_name=True)

    qrcode_id: str = Field(alias="qrcodeId")
    status: Literal["PENDING", "PAID", "EXPIRED", "CANCELLED", "PAID_LATE"]
    paid: bool = Field(description="True for PAID and PAID_LATE: the money is in the wallet.")


class BankNotifyIn(RequestModel):
    """The bank's incoming-transfer notification (signed: ``X-Bank-Signature``)."""

    model_config = ConfigDict(populate_by_name=True)

    transfer_id: str = Field(alias="transferId", min_length=1, max_length=64)
    amount: WireAmount
    currency: Currency
    receiver_proxy: str = Field(alias="receiverProxy", min_length=1, max_length=40)
    qr_payload: str | None = Field(default=None, alias="qrPayload", max_length=512)
    paid_at: AwareDatetime = Field(alias="paidAt")
    # Who paid, when the bank says. SCB's payment confirmation (docs: /work/shared/providers.md
    # §6) names them sendingBankCode (a 3-digit clearing code, e.g. "014"), payerAccountNumber
    # and payerName; an adapter for it maps them onto these. The account may be masked (x's).
    payer_bank: str | None = Field(default=None, alias="payerBank", max_length=10)
    payer_account: str | None = Field(default=None, alias="payerAccount", max_length=34)
    payer_name: str | None = Field(default=None, alias="payerName", max_length=100)


class PaymentAck(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    code: str = "OK"
    outcome: str
    duplicate: bool


class ScbReply(BaseModel):
    """Pao's answer to SCB's payment confirmation (providers.md §6 [B7]): received. It says
    nothing about crediting, which waits for SCB's inquiry (ADR 0029)."""

    model_config = ConfigDict(populate_by_name=True)

    res_code: str = Field(alias="resCode")
    res_desc: str = Field(alias="resDesc")
    transaction_id: str = Field(alias="transactionId")
    confirm_id: str = Field(alias="confirmId")
