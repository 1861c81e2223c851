"""Refusals of pao.identity, one class per catalogue code (spec §8)::

AppError
 ├── BadRequest (400)
 │    ├── PhoneNumberRequire10Digit   PHONE_NUMBER_REQUIRE_10_DIGIT
 │    ├── InvalidBank                 INVALID_BANK (unknown bank, bad account no., not eligible)
 │    ├── BankAccountNameEng          BANK_ACCOUNT_NAME_ENG
 │    ├── InvalidUserInfo             INVALID_USER_INFO (short password, unknown inviter)
 │    ├── UnverifiedOtp               UNVERIFIED_OTP
 │    ├── OtpTokenInvalid             OTP_TOKEN_INVALID (malformed token)
 │    ├── OtpNotExist                 OTP_NOT_EXIST (unknown or already used token)
 │    ├── OtpExpired                  OTP_EXPIRED
 │    ├── OtpCodeInvalid              OTP_CODE_INVALID (keeps the counted try)
 │    └── WrongPassword               WRONG_PASSWORD
 ├── Unauthorized (401)
 │    └── WrongCredential             WRONG_CREDENTIAL
 ├── Forbidden (403)
 │    └── InactiveUser                INACTIVE_USER
 ├── NotFound (404)
 │    └── UnknownMember               NO_USER (no member with that id)
 ├── Conflict (409)
 │    ├── ExistingUser                EXISTING_USER
 │    ├── ExistingBank                EXISTING_BANK
 │    └── MemberStatusUnchanged       MEMBER_STATUS_UNCHANGED (suspend the suspended…)
 ├── TooManyRequests (429)
 │    ├── RequestLimit                REQUEST_LIMIT (login throttle)
 │    ├── RequestLimit1Min            REQUEST_LIMIT_1MIN (one OTP per phone per minute)
 │    └── OtpBlock                    OTP_BLOCK (daily caps; burned OTP, keeps the burn)
 ├── Unprocessable (422)
 │    └── KeyMissing                  KEY_MISSING (a required field is empty)
 ├── OtpSendFail (502)                OTP_SEND_FAIL
 └── OtpVerifyFail (502)              OTP_VERIFY_FAIL (the OTP provider gave no usable answer;
                                      keeps the counted try)
"""

from __future__ import annotations

from pao.core.errors import (
    AppError,
    BadRequest,
    Conflict,
    Forbidden,
    NotFound,
    TooManyRequests,
    Unauthorized,
    Unprocessable,
)


class PhoneNumberRequire10Digit(BadRequest):
    code = "PHONE_NUMBER_REQUIRE_10_DIGIT"


class InvalidBank(BadRequest):
    code = "INVALID_BANK"


class BankAccountNameEng(BadRequest):
    code = "BANK_ACCOUNT_NAME_ENG"


class InvalidUserInfo(BadRequest):
    code = "INVALID_USER_INFO"


class UnverifiedOtp(BadRequest):
    code = "UNVERIFIED_OTP"


class OtpTokenInvalid(BadRequest):
    code = "OTP_TOKEN_INVALID"


class OtpNotExist(BadRequest):
    code = "OTP_NOT_EXIST"


class OtpExpired(BadRequest):
    code = "OTP_EXPIRED"


class OtpCodeInvalid(BadRequest):
    code = "OTP_CODE_INVALID"
    # The wrong try is counted in the database and must survive the refusal.
    keeps_changes = True


class WrongPassword(BadRequest):
    code = "WRONG_PASSWORD"


class WrongCredential(Unauthorized):
    code = "WRONG_CREDENTIAL"


class InactiveUser(Forbidden):
    code = "INACTIVE_USER"


class ExistingUser(Conflict):
    code = "EXISTING_USER"


class ExistingBank(Conflict):
    code = "EXISTING_BANK"


class RequestLimit(TooManyRequests):
    code = "REQUEST_LIMIT"


class RequestLimit1Min(TooManyRequests):
    code = "REQUEST_LIMIT_1MIN"


class OtpBlock(TooManyRequests):
    code = "OTP_BLOCK"


class KeyMissing(Unprocessable):
    code = "KEY_MISSING"


class OtpSendFail(AppError):
    status_code = 502
    code = "OTP_SEND_FAIL"


class OtpVerifyFail(AppError):
    """The OTP provider could not say whether the code is right (down, 5xx, an answer not
    understood): try again. Never a pass (ADR 0030)."""

    status_code = 502
    code = "OTP_VERIFY_FAIL"
    # The try was counted (the provider may have judged the PIN) and must survive.
    keeps_changes = True


class MemberStatusUnchanged(Conflict):
    """Suspending a suspended member, or reactivating an active one (two staff at once: the
    second finds it done)."""

    code = "MEMBER_STATUS_UNCHANGED"


class UnknownMember(NotFound):
    """No member with that id (the operator's tools; the wallet's MemberNotFound by phone)."""

    code = "NO_USER"
