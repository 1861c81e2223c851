"""Identity rules: registration, login, profile, bank account, password, agreement.

Registration checks, in this order (the first failure answers):

1. required fields present and not blank                      → 422 KEY_MISSING
2. phone: digits only, exactly 10 (8–13 in Lao mode)          → PHONE_NUMBER_REQUIRE_10_DIGIT
3. password at least 6 characters                             → INVALID_USER_INFO
4. bank code known; account number digits only, 10–15 (Thai
   banks) or 10–18 (Lao banks); '-' and spaces are ignored     → INVALID_BANK
5. account name only English letters and spaces for KTB, TMB,
   BBL (after trimming, collapsing spaces, upper-casing)       → BANK_ACCOUNT_NAME_ENG
6. inviter code 'PR' + id of an existing member, if given     → INVALID_USER_INFO
7. phone not registered                                        → 409 EXISTING_USER
8. bank account not registered                                 → 409 EXISTING_BANK
9. when the operator's ``registerOTP`` is on, a verified OTP
   for the phone (the given ``otpToken``'s, if sent)           → UNVERIFIED_OTP

Login failures are counted per (phone, IP), per IP, and per phone over a longer window as a
backstop that only the owner's known addresses pass (:mod:`pao.core.login_throttle`; limits
in the site settings ``loginFailures*``): a stranger's wrong passwords stop the stranger, not
the owner.

Changing where payouts go (bank, account number, holder name) needs the member's password
besides the token, like changing the password; wrong ones count on the same per-member
throttle. Every change of who or where is recorded (:mod:`pao.identity.changes`).

Password hashing runs in a worker thread: argon2 is deliberately slow and would otherwise
stall every other request on the event loop.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.login_throttle import LoginLimits, LoginThrottle
from pao.core.ratelimit import RateLimiter
from pao.core.security import hash_password, needs_rehash, verify_password
from pao.identity import otp as otp_service
from pao.identity import sessions
from pao.identity.changes import Origin, bank_account_value, record_change
from pao.identity.exceptions import (
    BankAccountNameEng,
    ExistingBank,
    ExistingUser,
    InactiveUser,
    InvalidBank,
    InvalidUserInfo,
    KeyMissing,
    PhoneNumberRequire10Digit,
    RequestLimit,
    UnverifiedOtp,
    WrongCredential,
    WrongPassword,
)
from pao.identity.models import Member, MemberChange, MemberChangeKind, MemberStatus, OtpRequest
from pao.identity.otp_provider import OtpProvider
from pao.identity.schemas import RegisterRequest
from pao.identity.sms import SmsSender
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.service import player_wallet
from pao.site.banks import Bank, banks_for, find_bank
from pao.site.settings import SiteSettings

PASSWORD_MIN = 6
PHONE_DIGITS = (10, 10)
LAO_PHONE_DIGITS = (8, 13)
ACCOUNT_NO_DIGITS = {"TH": (10, 15), "LA": (10, 18)}
ENGLISH_NAME = re.compile(r"[A-Z]+(?: [A-Z]+)*")
INVITE_CODE = re.compile(r"PR([1-9][0-9]{0,17})", re.IGNORECASE)
LAO_CURRENCIES = {"LAK": Currency.LAK, "BAHT": Currency.THB}


# ----------------------------------------------------------------------------- rules


def _required(value: str | None, field: str) -> str:
    value = (value or "").strip()
    if not value:
        raise KeyMissing(field=field)
    return value


def check_phone(raw: str, *, lao_mode: bool) -> str:
    phone = raw.strip()
    low, high = LAO_PHONE_DIGITS if lao_mode else PHONE_DIGITS
    if not (phone.isascii() and phone.isdigit() and low <= len(phone) <= high):
        raise PhoneNumberRequire10Digit()
    return phone


def check_password(password: str) -> None:
    if len(password) < PASSWORD_MIN:
        raise InvalidUserInfo()


def normalize_account_name(raw: str) -> str:
    """Trimmed, inner runs of spaces collapsed, upper-cased (as the client types it)."""
    return " ".join(raw.split()).upper()


def is_english_name(name: str) -> bool:
    return ENGLISH_NAME.fullmatch(normalize_account_name(name)) is not None


@dataclass(frozen=True)
class BankAccount:
    bank: Bank
    account_name: str
    account_no: str


def check_bank_account(*, bank_code: str, account_name: str, account_no: str) -> BankAccount:
    bank = find_bank(_required(bank_code, "bankCode"))
    name = normalize_account_name(_required(account_name, "bankAccountName"))
    number = re.sub(r"[\s-]", "", _required(account_no, "bankAccountNo"))
    if bank is None:
        raise InvalidBank()
    low, high = ACCOUNT_NO_DIGITS.get(bank.country, ACCOUNT_NO_DIGITS["TH"])
    if not (number.isascii() and number.isdigit() and low <= len(number) <= high):
        raise InvalidBank()
    if bank.english_name_only and not is_english_name(name):
        raise BankAccountNameEng()
    return BankAccount(bank=bank, account_name=name, account_no=number)


async def resolve_inviter(session: AsyncSession, code: str | None) -> int | None:
    """``PR`` + member id → that member's id; blank → None; anything else INVALID_USER_INFO."""
    code = (code or "").strip()
    if not code:
        return None
    match = INVITE_CODE.fullmatch(code)
    if match is None:
        raise InvalidUserInfo()
    inviter = await session.get(Member, int(match.group(1)))
    if inviter is None:
        raise InvalidUserInfo()
    return inviter.id


async def ensure_phone_free(session: AsyncSession, *, phone: str) -> None:
    query = select(Member.id).where(Member.phone == phone)
    if (await session.execute(query)).first() is not None:
        raise ExistingUser()


async def ensure_bank_free(
    session: AsyncSession, *, bank_code: str, account_no: str, except_member_id: int | None = None
) -> None:
    query = select(Member.id).where(
        Member.bank_code == bank_code, Member.bank_account_no == account_no
    )
    if except_member_id is not None:
        query = query.where(Member.id != except_member_id)
    if (await session.execute(query)).first() is not None:
        raise ExistingBank()


# ----------------------------------------------------------------------- registration


@dataclass(frozen=True)
class ValidRegistration:
    phone: str
    name: str
    password: str
    account: BankAccount
    currency: Currency
    source_code: str | None
    inviter_id: int | None
    otp: OtpRequest | None


async def validate_profile_step(
    session: AsyncSession, *, form: RegisterRequest, lao_mode: bool, register_otp: bool
) -> None:
    """The rules of the wizard's step 3 (name, phone, password, inviter, OTP), before the
    member has entered bank data; writes nothing."""
    _required(form.name, "name")
    phone = check_phone(_required(form.username, "username"), lao_mode=lao_mode)
    if not form.password:
        raise KeyMissing(field="password")
    check_password(form.password)
    await resolve_inviter(session, form.invite_code)
    await ensure_phone_free(session, phone=phone)
    if register_otp:
        await _verified_otp(session, form=form, phone=phone)


async def _verified_otp(session: AsyncSession, *, form: RegisterRequest, phone: str) -> OtpRequest:
    token = (form.otp_token or "").strip() or None
    verified = await otp_service.find_verified(session, phone=phone, token=token)
    if verified is None:
        raise UnverifiedOtp()
    return verified


async def validate_registration(
    session: AsyncSession, *, form: RegisterRequest, lao_mode: bool, register_otp: bool
) -> ValidRegistration:
    """Every registration rule (see the module docstring); writes nothing."""
    name = _required(form.name, "name")
    raw_phone = _required(form.username, "username")
    password = form.password
    if not password:
        raise KeyMissing(field="password")
    _required(form.bank_code, "bankCode")
    _required(form.bank_account_name, "bankAccountName")
    _required(form.bank_account_no, "bankAccountNo")
    phone = check_phone(raw_phone, lao_mode=lao_mode)
    check_password(password)
    account = check_bank_account(
        bank_code=form.bank_code,
        account_name=form.bank_account_name,
        account_no=form.bank_account_no,
    )
    if account.bank.code not in {bank.code for bank in banks_for(lao_mode=lao_mode)}:
        raise InvalidBank()  # a bank this variant does not list (a Lao bank on the Thai site)
    currency = LAO_CURRENCIES[form.currency or "LAK"] if lao_mode else Currency.THB
    inviter_id = await resolve_inviter(session, form.invite_code)
    await ensure_phone_free(session, phone=phone)
    await ensure_bank_free(session, bank_code=account.bank.code, account_no=account.account_no)
    verified = await _verified_otp(session, form=form, phone=phone) if register_otp else None
    source_code = (form.source_code or "").strip() or None
    return ValidRegistration(
        phone=phone,
        name=name,
        password=password,
        account=account,
        currency=currency,
        source_code=source_code,
        inviter_id=inviter_id,
        otp=verified,
    )


async def register(
    session: AsyncSession, *, form: RegisterRequest, lao_mode: bool, register_otp: bool
) -> Member:
    """Validate, create the member with its wallet, and use up the verified OTP."""
    valid = await validate_registration(
        session, form=form, lao_mode=lao_mode, register_otp=register_otp
    )
    member = await create_member(
        session,
        phone=valid.phone,
        name=valid.name,
        password=valid.password,
        bank_code=valid.account.bank.code,
        bank_account_name=valid.account.account_name,
        bank_account_no=valid.account.account_no,
        currency=valid.currency,
        source_code=valid.source_code,
        inviter_id=valid.inviter_id,
    )
    if valid.otp is not None:
        await otp_service.consume(session, otp=valid.otp)
    return member


async def create_member(
    session: AsyncSession,
    *,
    phone: str,
    name: str,
    password: str,
    bank_code: str,
    bank_account_name: str,
    bank_account_no: str,
    currency: Currency = Currency.THB,
    source_code: str | None = None,
    inviter_id: int | None = None,
) -> Member:
    """Insert a member (password hashed) and open its player wallet; no rule checks.

    Raises EXISTING_USER / EXISTING_BANK when the phone or bank account is taken, including
    by a concurrent transaction (the unique indexes decide; the loser's savepoint rolls back).
    """
    password_hash = await asyncio.to_thread(hash_password, password)
    member = Member(
        phone=phone,
        name=name,
        password_hash=password_hash,
        status=MemberStatus.ACTIVE,
        currency=currency,
        bank_code=bank_code,
        bank_account_name=bank_account_name,
        bank_account_no=bank_account_no,
        source_code=source_code,
        inviter_id=inviter_id,
        coin=0,
        created_at=utcnow(),
    )
    try:
        async with session.begin_nested():
            session.add(member)
            await session.flush()
    except IntegrityError:
        await ensure_phone_free(session, phone=phone)
        await ensure_bank_free(session, bank_code=bank_code, account_no=bank_account_no)
        raise
    await player_wallet(session, member_id=member.id, currency=currency)
    return member


# ------------------------------------------------------------------------------ login


def member_login_throttle(limiter: RateLimiter, site: SiteSettings) -> LoginThrottle:
    """The members' login throttle with the operator's limits."""
    return LoginThrottle(
        limiter,
        scope="member",
        limits=LoginLimits(
            per_account_ip=site.login_failures_per_phone,
            per_ip=site.login_failures_per_ip,
            window_seconds=site.login_window_seconds,
            per_account=site.login_failures_per_account,
            account_window_seconds=site.login_account_window_seconds,
        ),
    )


async def login(
    session: AsyncSession,
    *,
    throttle: LoginThrottle,
    phone: str,
    password: str,
    ip: str,
    user_agent: str | None,
    ttl_hours: int,
    device_id: str | None = None,
) -> str:
    """Check the credentials and open a session; returns the bearer token.

    The throttle is asked first: while this IP's failures on the phone, or this IP's failures
    overall, or (from an address the owner never logged in from) the phone's failures from
    everywhere have reached their limit, every attempt, even a right one, answers
    REQUEST_LIMIT. A success clears this IP's count on the phone and remembers the IP as the
    owner's.
    """
    phone = phone.strip()
    await throttle.check(account=phone, ip=ip)
    member = (
        await session.execute(select(Member).where(Member.phone == phone))
    ).scalar_one_or_none()
    # An unknown phone still costs one argon2 verification (same timing).
    stored_hash = member.password_hash if member is not None else None
    password_ok = await asyncio.to_thread(verify_password, stored_hash, password)
    if member is None or not password_ok:
        await throttle.failed(account=phone, ip=ip)
        raise WrongCredential()
    if member.status != MemberStatus.ACTIVE:
        raise InactiveUser()
    await throttle.succeeded(account=phone, ip=ip)
    if needs_rehash(member.password_hash):
        member.password_hash = await asyncio.to_thread(hash_password, password)
    return await sessions.open_session(
        session,
        member_id=member.id,
        ttl_hours=ttl_hours,
        ip=ip,
        user_agent=user_agent,
        device_id=device_id,
    )


# --------------------------------------------------------------------- the member's own


async def confirm_password(
    *,
    member: Member,
    limiter: RateLimiter,
    site: SiteSettings,
    password: str,
    field: str = "password",
) -> None:
    """Fresh proof of the member behind a token: their password (argon2, in a thread).

    Wrong passwords are counted per member like login failures (one counter for every route
    that asks, the password change included), so a stolen token cannot be used to guess the
    password: at ``loginFailuresPerPhone`` within ``loginWindowSeconds``, REQUEST_LIMIT.
    Missing → KEY_MISSING (``field``), wrong → WRONG_PASSWORD.
    """
    key = f"changepwd:member:{member.id}"
    if await limiter.get(key) >= site.login_failures_per_phone:
        raise RequestLimit()
    if not password:
        raise KeyMissing(field=field)
    if not await asyncio.to_thread(verify_password, member.password_hash, password):
        await limiter.incr(key, site.login_window_seconds)
        raise WrongPassword()
    await limiter.reset(key)


def _changes_of(
    session: AsyncSession,
    member: Member,
    origin: Origin,
    before: tuple[str, str, str, str],
) -> list[MemberChange]:
    """Record what differs between ``before`` and the member now, one row per kind."""
    old_name, old_bank, old_number, old_holder = before
    compared = [
        (MemberChangeKind.NAME, old_name, member.name),
        (
            MemberChangeKind.BANK_ACCOUNT,
            bank_account_value(old_bank, old_number),
            bank_account_value(member.bank_code, member.bank_account_no),
        ),
        (MemberChangeKind.BANK_ACCOUNT_NAME, old_holder, member.bank_account_name),
    ]
    return [
        record_change(session, member_id=member.id, kind=kind, origin=origin, old=old, new=new)
        for kind, old, new in compared
        if old != new
    ]


def _snapshot(member: Member) -> tuple[str, str, str, str]:
    return (member.name, member.bank_code, member.bank_account_no, member.bank_account_name)


async def update_profile(
    session: AsyncSession,
    *,
    member: Member,
    limiter: RateLimiter,
    site: SiteSettings,
    password: str,
    origin: Origin,
    name: str,
    bank_code: str,
    bank_account_name: str,
    bank_account_no: str,
) -> list[MemberChange]:
    """Change name and bank account, with the registration rules for both, once the password
    is confirmed; records and returns what changed."""
    await confirm_password(member=member, limiter=limiter, site=site, password=password)
    name = _required(name, "name")
    account = check_bank_account(
        bank_code=bank_code, account_name=bank_account_name, account_no=bank_account_no
    )
    await ensure_bank_free(
        session,
        bank_code=account.bank.code,
        account_no=account.account_no,
        except_member_id=member.id,
    )
    before = _snapshot(member)
    try:
        async with session.begin_nested():
            member.name = name
            member.bank_code = account.bank.code
            member.bank_account_name = account.account_name
            member.bank_account_no = account.account_no
            await session.flush()
    except IntegrityError:  # taken by a concurrent transaction meanwhile
        raise ExistingBank() from None
    changes = _changes_of(session, member, origin, before)
    await session.flush()
    return changes


async def update_bank_account_name(
    session: AsyncSession,
    *,
    member: Member,
    limiter: RateLimiter,
    site: SiteSettings,
    password: str,
    origin: Origin,
    bank_code: str,
    bank_account_name: str,
) -> list[MemberChange]:
    """Fix a Thai-script account name on a KTB/TMB/BBL account (spec §2, Profile), once the
    password is confirmed; records and returns the change.

    Only when the member's bank requires English names, ``bankCode`` is that bank and the
    current name is not English yet (INVALID_BANK otherwise); the new name must be English
    (BANK_ACCOUNT_NAME_ENG).
    """
    await confirm_password(member=member, limiter=limiter, site=site, password=password)
    code = _required(bank_code, "bankCode").upper()
    name = normalize_account_name(_required(bank_account_name, "bankAccountName"))
    bank = find_bank(member.bank_code)
    if (
        bank is None
        or not bank.english_name_only
        or code != bank.code
        or is_english_name(member.bank_account_name)
    ):
        raise InvalidBank()
    if not is_english_name(name):
        raise BankAccountNameEng()
    before = _snapshot(member)
    member.bank_account_name = name
    changes = _changes_of(session, member, origin, before)
    await session.flush()
    return changes


async def change_password(
    session: AsyncSession,
    *,
    member: Member,
    limiter: RateLimiter,
    site: SiteSettings,
    origin: Origin,
    old_password: str,
    new_password: str,
) -> None:
    """Set a new password, record that it changed, and revoke every session of the member,
    the current one included.

    Wrong old passwords are throttled like login failures (:func:`confirm_password`), so a
    stolen token cannot be used to guess the password.
    """
    if old_password and not new_password:  # a missing field costs no try
        raise KeyMissing(field="newPassword")
    await confirm_password(
        member=member, limiter=limiter, site=site, password=old_password, field="oldPassword"
    )
    check_password(new_password)
    member.password_hash = await asyncio.to_thread(hash_password, new_password)
    record_change(session, member_id=member.id, kind=MemberChangeKind.PASSWORD, origin=origin)
    await sessions.revoke_all(session, member_id=member.id)
    await session.flush()


async def accept_agreement(session: AsyncSession, *, member: Member) -> None:
    if member.agreement_accepted_at is None:
        member.agreement_accepted_at = utcnow()
    await session.flush()


# ------------------------------------------------------------------------------- OTP


async def send_registration_otp(
    session: AsyncSession,
    *,
    phone_number: str,
    ip: str,
    lao_mode: bool,
    site: SiteSettings,
    sms: SmsSender,
    sender_name: str,
    provider: OtpProvider | None = None,
) -> otp_service.SentOtp:
    """Send an OTP to a phone that may register (valid format, not taken); through
    ``provider`` when one makes the codes (``PAO_OTP_PROVIDER``)."""
    phone = check_phone(_required(phone_number, "phoneNumber"), lao_mode=lao_mode)
    # No SMS to a phone that can never register: it would only spam the member.
    await ensure_phone_free(session, phone=phone)
    return await otp_service.send_otp(
        session,
        phone=phone,
        ip=ip,
        sms=sms,
        sender_name=sender_name,
        daily_cap_per_phone=site.otp_daily_cap_per_phone,
        daily_cap_per_ip=site.otp_daily_cap_per_ip,
        provider=provider,
    )
