"""HTTP routes of pao.identity: registration, OTP, login/logout, the member's own account.

Every authenticated route works on ``CurrentMember`` (the token's member); no route takes a
member id from the client, so a member can only ever see and change their own data.
"""

from __future__ import annotations

from fastapi import APIRouter, Request, Response, status

from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.ratelimit import RateLimiter
from pao.core.settings import Settings
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity import service, sessions
from pao.identity.deps import CurrentLogin, CurrentMember
from pao.identity.otp import verify_otp
from pao.identity.schemas import (
    AgreementResponse,
    BankAccountNameUpdateRequest,
    ChangePasswordRequest,
    CodeResponse,
    LoginRequest,
    LoginResponse,
    OtpSendRequest,
    OtpSendResponse,
    OtpVerifyRequest,
    OtpVerifyResponse,
    ProfileResponse,
    ProfileUpdateRequest,
    RegisterRequest,
    profile_of,
)
from pao.identity.sms import SmsSenderDep
from pao.site.settings import load_site_settings

router = APIRouter(route_class=UnitOfWorkRoute)

REGISTRATION_ERRORS = errors(
    _400="PHONE_NUMBER_REQUIRE_10_DIGIT | INVALID_BANK | BANK_ACCOUNT_NAME_ENG"
    " | INVALID_USER_INFO | UNVERIFIED_OTP",
    _409="EXISTING_USER | EXISTING_BANK",
    _410="gone",
    _422="KEY_MISSING | KEY_INVALID",
)


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def _limiter(request: Request) -> RateLimiter:
    limiter: RateLimiter = request.app.state.rate_limiter
    return limiter


def _client_ip(request: Request) -> str:
    # The socket peer; behind a proxy, run uvicorn with --proxy-headers so this is the client.
    return request.client.host if request.client else "unknown"


# ------------------------------------------------------------------------ registration


@router.post(
    "/api/account/validate",
    operation_id="validateAccount",
    tags=["account"],
    response_model=CodeResponse,
    responses=REGISTRATION_ERRORS,
    summary="Check a registration without creating anything",
    description="With no bank fields at all (the wizard's step 3) only the name, phone, "
    "password, inviter and OTP rules run; otherwise every registration rule does.",
)
async def validate_account(
    body: RegisterRequest, request: Request, session: SessionDep
) -> CodeResponse:
    site = await load_site_settings(session)
    bank_fields = (body.bank_code, body.bank_account_name, body.bank_account_no)
    check = (
        service.validate_profile_step
        if not any((field or "").strip() for field in bank_fields)
        else service.validate_registration
    )
    await check(
        session, form=body, lao_mode=_settings(request).lao_mode, register_otp=site.register_otp
    )
    return CodeResponse()


@router.post(
    "/api/account",
    operation_id="createAccount",
    tags=["account"],
    status_code=status.HTTP_201_CREATED,
    response_model=CodeResponse,
    responses=REGISTRATION_ERRORS,
    summary="Register a member (and open the wallet)",
)
async def create_account(
    body: RegisterRequest, request: Request, session: SessionDep
) -> CodeResponse:
    site = await load_site_settings(session)
    await service.register(
        session, form=body, lao_mode=_settings(request).lao_mode, register_otp=site.register_otp
    )
    return CodeResponse()


# -------------------------------------------------------------------------------- OTP


@router.post(
    "/api/otp/send",
    operation_id="sendOtp",
    tags=["otp"],
    response_model=OtpSendResponse,
    responses=errors(
        _400="PHONE_NUMBER_REQUIRE_10_DIGIT",
        _409="EXISTING_USER",
        _410="gone",
        _422="KEY_MISSING | KEY_INVALID",
        _429="REQUEST_LIMIT_1MIN | OTP_BLOCK",
        _502="OTP_SEND_FAIL",
    ),
    summary="Send a registration OTP by SMS (code OTP_VERIFIED: already verified, no SMS)",
)
async def send_otp(
    body: OtpSendRequest, request: Request, session: SessionDep, sms: SmsSenderDep
) -> OtpSendResponse:
    settings = _settings(request)
    sent = await service.send_registration_otp(
        session,
        phone_number=body.phone_number,
        ip=_client_ip(request),
        lao_mode=settings.lao_mode,
        site=await load_site_settings(session),
        sms=sms,
        sender_name=settings.sms_sender,
    )
    return OtpSendResponse(otp_ref=sent.ref, otp_token=sent.token, code=sent.code)


@router.post(
    "/api/otp/verify",
    operation_id="verifyOtp",
    tags=["otp"],
    response_model=OtpVerifyResponse,
    responses=errors(
        _400="OTP_TOKEN_INVALID | OTP_NOT_EXIST | OTP_EXPIRED | OTP_CODE_INVALID",
        _410="gone",
        _422="KEY_MISSING | KEY_INVALID",
        _429="OTP_BLOCK",
    ),
    summary="Check the SMS code of an OTP",
)
async def verify(body: OtpVerifyRequest, session: SessionDep) -> OtpVerifyResponse:
    code = await verify_otp(session, token=body.otp_token.strip(), code=body.otp_code.strip())
    return OtpVerifyResponse(code=code)


# ----------------------------------------------------------------------- login/logout


@router.post(
    "/api/login",
    operation_id="login",
    tags=["auth"],
    response_model=LoginResponse,
    responses=errors(
        _401="WRONG_CREDENTIAL",
        _403="INACTIVE_USER",
        _410="gone",
        _422="KEY_MISSING | KEY_INVALID",
        _429="REQUEST_LIMIT",
    ),
    summary="Log in with phone and password; returns a bearer token",
)
async def login(body: LoginRequest, request: Request, session: SessionDep) -> LoginResponse:
    token = await service.login(
        session,
        throttle=service.member_login_throttle(
            _limiter(request), await load_site_settings(session)
        ),
        phone=body.username,
        password=body.password,
        ip=_client_ip(request),
        user_agent=request.headers.get("user-agent"),
        ttl_hours=_settings(request).session_ttl_hours,
    )
    return LoginResponse(token=token)


@router.post(
    "/api/logout",
    operation_id="logout",
    tags=["auth"],
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=AUTH_ERRORS,
    summary="Revoke the current token",
)
async def logout(login: CurrentLogin, session: SessionDep) -> Response:
    await sessions.revoke(session, login=login)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


# -------------------------------------------------------------------- the own account


@router.get(
    "/api/account/profile",
    operation_id="getProfile",
    tags=["account"],
    response_model=ProfileResponse,
    responses=AUTH_ERRORS,
    summary="The member's profile and bank account",
)
async def get_profile(member: CurrentMember) -> ProfileResponse:
    return profile_of(member)


@router.put(
    "/api/account/profile",
    operation_id="updateProfile",
    tags=["account"],
    response_model=ProfileResponse,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="INVALID_BANK | BANK_ACCOUNT_NAME_ENG",
            _409="EXISTING_BANK",
            _422="KEY_MISSING | KEY_INVALID",
        ),
    },
    summary="Change name and bank account; answers the updated profile",
)
async def update_profile(
    body: ProfileUpdateRequest, member: CurrentMember, session: SessionDep
) -> ProfileResponse:
    await service.update_profile(
        session,
        member=member,
        name=body.name,
        bank_code=body.bank_code,
        bank_account_name=body.bank_account_name,
        bank_account_no=body.bank_account_no,
    )
    return profile_of(member)


@router.put(
    "/api/account/bankAccountName",
    operation_id="updateBankAccountName",
    tags=["account"],
    response_model=ProfileResponse,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="INVALID_BANK (not a KTB/TMB/BBL account with a non-English name, or another"
            " bankCode) | BANK_ACCOUNT_NAME_ENG (the new name is not English)",
            _422="KEY_MISSING | KEY_INVALID",
        ),
    },
    summary="Replace a non-English account name on a KTB/TMB/BBL account",
)
async def update_bank_account_name(
    body: BankAccountNameUpdateRequest, member: CurrentMember, session: SessionDep
) -> ProfileResponse:
    await service.update_bank_account_name(
        session, member=member, bank_code=body.bank_code, bank_account_name=body.bank_account_name
    )
    return profile_of(member)


@router.put(
    "/api/account/changepwd",
    operation_id="changePassword",
    tags=["account"],
    response_model=CodeResponse,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="WRONG_PASSWORD | INVALID_USER_INFO (new password under 6 characters)",
            _422="KEY_MISSING | KEY_INVALID",
            _429="REQUEST_LIMIT",
        ),
    },
    summary="Change the password; every session of the member is revoked",
)
async def change_password(
    body: ChangePasswordRequest, request: Request, member: CurrentMember, session: SessionDep
) -> CodeResponse:
    await service.change_password(
        session,
        member=member,
        limiter=_limiter(request),
        site=await load_site_settings(session),
        old_password=body.old_password,
        new_password=body.new_password,
    )
    return CodeResponse()


@router.get(
    "/api/account/agreement",
    operation_id="getAgreement",
    tags=["account"],
    response_model=AgreementResponse,
    responses=AUTH_ERRORS,
    summary="Whether the member accepted the agreement",
)
async def get_agreement(member: CurrentMember) -> AgreementResponse:
    return AgreementResponse(accepted=member.agreement_accepted_at is not None)


@router.put(
    "/api/account/agreement",
    operation_id="acceptAgreement",
    tags=["account"],
    response_model=AgreementResponse,
    responses=AUTH_ERRORS,
    summary="Record that the member accepted the agreement",
)
async def accept_agreement(member: CurrentMember, session: SessionDep) -> AgreementResponse:
    await service.accept_agreement(session, member=member)
    return AgreementResponse(accepted=True)
