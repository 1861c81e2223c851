"""HTTP routes of pao.identity: registration, OTP, login/logout, the member's own account.

Every authenticated route works on ``CurrentMember`` (the token's member); no route takes a
member id from the client, so a member can only ever see and change their own data.
"""

from __future__ import annotations

from fastapi import APIRouter, BackgroundTasks, Request, Response, status

from pao.core.client import client_ip
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.ratelimit import RateLimiter
from pao.core.settings import Settings
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity import changes, otp_proof, service, sessions
from pao.identity.deps import CurrentLogin, CurrentMember
from pao.identity.device import device_id
from pao.identity.models import Member, MemberChange
from pao.identity.otp import RESEND_INTERVAL, verify_otp
from pao.identity.schemas import (
    AgreementResponse,
    BankAccountNameUpdateRequest,
    ChangePasswordRequest,
    CodeResponse,
    LoginRequest,
    LoginResponse,
    OtpChallengeOut,
    OtpSendRequest,
    OtpSendResponse,
    OtpVerifyRequest,
    OtpVerifyResponse,
    ProfileResponse,
    ProfileUpdateRequest,
    RegisterRequest,
    profile_of,
)
from pao.identity.sms import BudgetedSmsSender, OtpCheckerDep, OtpProviderDep, SmsSenderDep
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


def _origin(request: Request) -> changes.Origin:
    return changes.Origin(ip=client_ip(request), user_agent=request.headers.get("user-agent"))


def _announce_bank_change(
    recorded: list[MemberChange],
    *,
    member: Member,
    request: Request,
    sms: SmsSenderDep,
    background: BackgroundTasks,
) -> None:
    """After a bank change, an SMS to the registered phone, sent once the response (and so
    the committed change) is out; its failure is only logged."""
    if not changes.touches_bank(recorded):
        return
    text = changes.bank_change_text(
        sender=_settings(request).sms_sender,
        bank_code=member.bank_code,
        account_no=member.bank_account_no,
    )
    background.add_task(changes.notify_bank_change, sms, phone=member.phone, text=text)


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


@router.get(
    "/api/otp/challenge",
    operation_id="otpChallenge",
    tags=["otp"],
    response_model=OtpChallengeOut,
    responses=errors(_410="gone"),
    summary="A proof-of-work challenge that opens the SMS reserve (asked after OTP_BLOCK "
    "with reserve: true)",
)
async def otp_challenge(request: Request) -> OtpChallengeOut:
    limiter: RateLimiter = request.app.state.rate_limiter
    return OtpChallengeOut(
        challenge=await otp_proof.issue(limiter), bits=_settings(request).otp_proof_bits
    )


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
    body: OtpSendRequest,
    request: Request,
    session: SessionDep,
    sms: SmsSenderDep,
    provider: OtpProviderDep,
) -> OtpSendResponse:
    settings = _settings(request)
    limiter: RateLimiter = request.app.state.rate_limiter
    if (
        body.proof is not None
        and isinstance(sms, BudgetedSmsSender)
        and await otp_proof.redeem(
            limiter, body.proof.challenge, body.proof.nonce, settings.otp_proof_bits
        )
    ):
        sms = sms.with_proof()
        provider = provider.with_proof() if provider is not None else None
    sent = await service.send_registration_otp(
        session,
        phone_number=body.phone_number,
        ip=client_ip(request),
        lao_mode=settings.lao_mode,
        site=await load_site_settings(session),
        sms=sms,
        sender_name=settings.sms_sender,
        provider=provider,
    )
    return OtpSendResponse(
        otp_ref=sent.ref,
        otp_token=sent.token,
        code=sent.code,
        resend_in=0 if sent.token is None else int(RESEND_INTERVAL.total_seconds()),
    )


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
        _502="OTP_VERIFY_FAIL",
    ),
    summary="Check the SMS code of an OTP",
)
async def verify(
    body: OtpVerifyRequest, session: SessionDep, checker: OtpCheckerDep
) -> OtpVerifyResponse:
    code = await verify_otp(
        session, token=body.otp_token.strip(), code=body.otp_code.strip(), provider=checker
    )
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
        ip=client_ip(request),
        user_agent=request.headers.get("user-agent"),
        ttl_hours=_settings(request).session_ttl_hours,
        device_id=device_id(request),
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


CONFIRMATION_DOC = (
    " Needs `password`, the member's current password (Pao's addition to the spec): missing →"
    " 422 KEY_MISSING (field password), wrong → 400 WRONG_PASSWORD; wrong ones are counted per"
    " member with those of the password change, and past `loginFailuresPerPhone` within"
    " `loginWindowSeconds` → 429 REQUEST_LIMIT. Each change is recorded with the client's"
    " address; a bank change sends an SMS to the registered phone, and the member's"
    " withdrawals requested within `bankChangeHoldHours` wait for a cashier."
)


@router.put(
    "/api/account/profile",
    operation_id="updateProfile",
    tags=["account"],
    response_model=ProfileResponse,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="INVALID_BANK | BANK_ACCOUNT_NAME_ENG | WRONG_PASSWORD",
            _409="EXISTING_BANK",
            _422="KEY_MISSING | KEY_INVALID",
            _429="REQUEST_LIMIT",
        ),
    },
    summary="Change name and bank account; answers the updated profile",
    description="The password is checked first, then the registration rules of name and bank"
    " account." + CONFIRMATION_DOC,
)
async def update_profile(
    body: ProfileUpdateRequest,
    request: Request,
    member: CurrentMember,
    session: SessionDep,
    sms: SmsSenderDep,
    background: BackgroundTasks,
) -> ProfileResponse:
    recorded = await service.update_profile(
        session,
        member=member,
        limiter=_limiter(request),
        site=await load_site_settings(session),
        password=body.password,
        origin=_origin(request),
        name=body.name,
        bank_code=body.bank_code,
        bank_account_name=body.bank_account_name,
        bank_account_no=body.bank_account_no,
    )
    _announce_bank_change(recorded, member=member, request=request, sms=sms, background=background)
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
            " bankCode) | BANK_ACCOUNT_NAME_ENG (the new name is not English) | WRONG_PASSWORD",
            _422="KEY_MISSING | KEY_INVALID",
            _429="REQUEST_LIMIT",
        ),
    },
    summary="Replace a non-English account name on a KTB/TMB/BBL account",
    description="The password is checked first, then the account name rules." + CONFIRMATION_DOC,
)
async def update_bank_account_name(
    body: BankAccountNameUpdateRequest,
    request: Request,
    member: CurrentMember,
    session: SessionDep,
    sms: SmsSenderDep,
    background: BackgroundTasks,
) -> ProfileResponse:
    recorded = await service.update_bank_account_name(
        session,
        member=member,
        limiter=_limiter(request),
        site=await load_site_settings(session),
        password=body.password,
        origin=_origin(request),
        bank_code=body.bank_code,
        bank_account_name=body.bank_account_name,
    )
    _announce_bank_change(recorded, member=member, request=request, sms=sms, background=background)
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
    description="Wrong old passwords are counted per member (shared with the profile and"
    " bank account name changes): past `loginFailuresPerPhone` within `loginWindowSeconds` →"
    " 429 REQUEST_LIMIT. The change is recorded (the event, never the password).",
)
async def change_password(
    body: ChangePasswordRequest, request: Request, member: CurrentMember, session: SessionDep
) -> CodeResponse:
    await service.change_password(
        session,
        member=member,
        limiter=_limiter(request),
        site=await load_site_settings(session),
        origin=_origin(request),
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
