"""Wire shapes of the lookups (``GET /api/lookup/…``, spec §7)."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from pao.kit.money import MajorAmount


class _Out(BaseModel):
    model_config = ConfigDict(populate_by_name=True)


class BankOut(_Out):
    code: str = Field(description="Bank code, e.g. KBANK, SCB, BCEL.")
    name_th: str = Field(alias="nameTH", description="Name in Thai (Lao banks: in Lao).")
    name_en: str = Field(alias="nameEN", description="Name in English.")
    country: Literal["TH", "LA"] = Field(
        description="Where the bank is: the Lao app lists a currency's banks (LAK: Lao ones)."
    )


class SourceOut(_Out):
    code: str = Field(description="The sourceCode to send on registration.")
    description: str = Field(description="Label in the requested locale.")


class InfoOut(_Out):
    name: str = Field(description="The operator's brand name.")
    website: str = Field(description="The operator's website URL (empty when not set).")


class ContactOut(_Out):
    contact_text: str = Field(
        alias="contactText", description="Contact information, sanitised HTML, requested locale."
    )
    line_link: str = Field(alias="lineLink", description="LINE add-friend URL (empty if none).")
    line_name: str = Field(alias="lineName", description="LINE id shown with the link.")
    line_qr: str | None = Field(
        alias="lineQR", description="URL of the LINE QR image, or null for the app's default."
    )


class NoticeOut(_Out):
    notice: str = Field(
        description="Sanitised HTML in the requested locale; the client replaces "
        "'%percentFail%' with the bonus's percentFail."
    )


class WithdrawLimitsOut(_Out):
    withdraw_min: MajorAmount = Field(alias="withdrawMin")
    withdraw_max: MajorAmount = Field(alias="withdrawMax")


class SlipOut(_Out):
    minimum_deposit: MajorAmount = Field(
        alias="minimumDeposit", description="Smallest slip deposit accepted, major units."
    )
    closed_from: str = Field(
        alias="closedFrom",
        description="Start (HH:MM, operator's local time) of the daily window during which "
        "slip upload is closed. The window may wrap midnight (23:50 to 00:10); equal start "
        "and end mean never closed.",
    )
    closed_to: str = Field(alias="closedTo", description="End (HH:MM, exclusive) of the window.")
    upload_within_minutes: int = Field(
        alias="uploadWithinMinutes",
        description="A slip must be uploaded within this many minutes of the transfer.",
    )


class ActiveOut(_Out):
    terminated: bool = Field(description="True when the operator has closed the site.")


class RegisterOtpOut(_Out):
    register_otp: bool = Field(
        alias="registerOTP", description="Registration requires a verified phone (OTP)."
    )


class ChatWidgetOut(_Out):
    enable_chat_widget: bool = Field(alias="enableChatWidget")


class HowtoKey(StrEnum):
    WALLET = "wallet"
    ENTER_GAME = "enter_game"
    CHECK_BALANCE = "check_balance"
    RECEIVE_BONUS = "receive_bonus"
    END_BONUS = "end_bonus"


class HowtoVideoOut(_Out):
    key: HowtoKey
    url: str | None = Field(description="Video URL, or null when the operator has set none.")
