"""Wire shapes of pao.identity, named as in spec §3 and §7.

Required text fields are required by the schema (absent → 422 ``KEY_MISSING``); the service
also refuses them empty after trimming. Lengths are capped here so that nothing unbounded
reaches argon2 or the database (too long → 422 ``KEY_INVALID``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from pao.core.params import RequestModel
from pao.identity.models import Member
from pao.site.banks import find_bank

PASSWORD_MAX = 128


class _In(RequestModel):
    model_config = ConfigDict(populate_by_name=True)


class RegisterRequest(_In):
    name: str = Field(max_length=100)
    username: str = Field(max_length=32, description="The phone number.")
    password: str = Field(max_length=PASSWORD_MAX)
    source_code: str | None = Field(default=None, alias="sourceCode", max_length=40)
    invite_code: str | None = Field(
        default=None, alias="inviteCode", max_length=24, description="'PR' + inviter id."
    )
    # Empty at the wizard's step 3; required (KEY_MISSING) when registering.
    bank_code: str = Field(default="", alias="bankCode", max_length=10)
    bank_account_name: str = Field(default="", alias="bankAccountName", max_length=100)
    bank_account_no: str = Field(default="", alias="bankAccountNo", max_length=30)
    currency: Literal["LAK", "BAHT"] | None = Field(
        default=None, description="Lao mode only (default LAK); ignored otherwise."
    )
    otp_token: str | None = Field(
        default=None,
        alias="otpToken",
        max_length=128,
        description="The verified OTP's token, when registration OTP is on.",
    )


class CodeResponse(BaseModel):
    code: str = "OK"


class OtpProof(_In):
    challenge: str = Field(max_length=64)
    nonce: str = Field(max_length=32)


class OtpSendRequest(_In):
    phone_number: str = Field(alias="phoneNumber", max_length=32)
    proof: OtpProof | None = Field(
        default=None,
        description="A solved GET /api/otp/challenge: opens the SMS reserve once the hourly "
        "total is spent (an OTP_BLOCK with reserve: true asks for it).",
    )


class OtpChallengeOut(BaseModel):
    challenge: str
    bits: int = Field(description="Leading zero bits sha256(challenge + ':' + nonce) must have.")


class OtpSendResponse(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    otp_ref: str = Field(alias="otpRef")
    otp_token: str | None = Field(
        alias="otpToken", description="Null when the phone is already verified."
    )
    code: Literal["OK", "OTP_VERIFIED"]
    resend_in: int = Field(
        default=0,
        alias="resendIn",
        description="Seconds until another code can be asked for this phone (0: now).",
    )


class OtpVerifyRequest(_In):
    otp_token: str = Field(alias="otpToken", max_length=128)
    otp_code: str = Field(alias="otpCode", max_length=12)


class OtpVerifyResponse(BaseModel):
    code: Literal["OK", "OTP_VERIFIED"] = Field(
        description="OTP_VERIFIED when this token was verified before (a retried call)."
    )


class LoginRequest(_In):
    username: str = Field(max_length=32)
    password: str = Field(max_length=PASSWORD_MAX)


class LoginResponse(BaseModel):
    token: str


class BankOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    name_th: str = Field(alias="nameTH")
    name_en: str = Field(alias="nameEN")


class BankAccountOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    bank: BankOut | None
    bank_account_name: str = Field(alias="bankAccountName")
    bank_account_no: str = Field(alias="bankAccountNo")
    bank_code: str = Field(alias="bankCode")


class ProfileOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    id: str = Field(alias="_id")
    username: str
    name: str
    created_at: datetime = Field(alias="createdAt")


class ProfileResponse(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    profile: ProfileOut
    bank_account: BankAccountOut = Field(alias="bankAccount")


CONFIRM_PASSWORD_DOC = (
    "The member's current password: changing where withdrawals are paid needs fresh proof of "
    "the member besides the token (Pao's addition to the spec)."
)


class ProfileUpdateRequest(_In):
    name: str = Field(max_length=100)
    bank_code: str = Field(alias="bankCode", max_length=10)
    bank_account_name: str = Field(alias="bankAccountName", max_length=100)
    bank_account_no: str = Field(alias="bankAccountNo", max_length=30)
    password: str = Field(max_length=PASSWORD_MAX, description=CONFIRM_PASSWORD_DOC)


class BankAccountNameUpdateRequest(_In):
    bank_code: str = Field(alias="bankCode", max_length=10)
    bank_account_name: str = Field(alias="bankAccountName", max_length=100)
    password: str = Field(max_length=PASSWORD_MAX, description=CONFIRM_PASSWORD_DOC)


class ChangePasswordRequest(_In):
    old_password: str = Field(alias="oldPassword", max_length=PASSWORD_MAX)
    new_password: str = Field(alias="newPassword", max_length=PASSWORD_MAX)


class AgreementResponse(BaseModel):
    accepted: bool


def bank_account_fields(
    *, bank_code: str, bank_account_name: str, bank_account_no: str
) -> dict[str, Any]:
    """The :class:`BankAccountOut` fields of a member's bank columns, not validated: the
    wallet screen, which reads the columns without loading a :class:`Member`, validates them
    with its whole response, in one call."""
    bank = find_bank(bank_code)
    return {
        "bank": {"name_th": bank.name_th, "name_en": bank.name_en} if bank else None,
        "bank_account_name": bank_account_name,
        "bank_account_no": bank_account_no,
        "bank_code": bank_code,
    }


def bank_account_of(member: Member) -> BankAccountOut:
    """The member's bank account as the profile shows it (and the wallet screen, from the same
    :func:`bank_account_fields`)."""
    return BankAccountOut.model_validate(
        bank_account_fields(
            bank_code=member.bank_code,
            bank_account_name=member.bank_account_name,
            bank_account_no=member.bank_account_no,
        )
    )


def profile_of(member: Member) -> ProfileResponse:
    return ProfileResponse(
        profile=ProfileOut(
            id=str(member.id),
            username=member.phone,
            name=member.name,
            created_at=member.created_at,
        ),
        bank_account=bank_account_of(member),
    )
