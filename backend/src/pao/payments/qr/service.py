"""QR deposit rules: create, show, cancel, and credit what the bank or a gateway reports.

**Matching a KBANK payment** (docs/adr/0005-kbank-qr-matching.md): a PromptPay transfer
notification carries the receiver and the amount, not our QR; so every unpaid QR of a receiving
account gets an amount no other unpaid QR of that account has (the requested amount plus 0.01…
0.99 baht, or plus 1…99 kip, when the plain amount is taken), and the member is shown the exact
amount. A notification is matched first by its ``qrPayload`` when the bank echoes it, then by
(receiver, amount, currency) among unpaid QRs of the last :data:`LATE_WINDOW`.

**Stale**: creating a QR marks the member's other PENDING QRs (any channel) stale. A stale QR is
no longer offered (``GET /api/qrcode/{bankCode}`` answers ``hasQrcode: false`` for it, so a
client that refetches the other tabs shows no QR there) but stays payable until it expires, and a
payment for it is credited like any other.

**Credit once**: each bank ``transferId`` and each gateway ``(code, txn id)`` is inserted first
under a unique index; a replay (even concurrent: on PostgreSQL the second insert waits for the
first transaction) finds the row and credits nothing. A payment for an EXPIRED or CANCELLED QR
is credited and the QR becomes PAID_LATE; money is never dropped, and a payment matching no QR
is kept as UNMATCHED for staff to match by hand (:mod:`pao.payments.qr.matching`).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

import structlog
from sqlalchemy import and_, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import CurrencyNotOffered, Unprocessable
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.events import DepositCredited, publish
from pao.kit.money import Currency, PerCurrency
from pao.kit.states import transition
from pao.ledger.models import AccountKind, JournalEntry
from pao.ledger.service import credit_wallet
from pao.payments.accounts import ReceivingAccount, ReceivingKind, ReceivingMode
from pao.payments.gateways.base import GatewayOrder, VerifiedPayment
from pao.payments.qr.emv import PayloadError
from pao.payments.qr.exceptions import (
    AmountBelowMinimum,
    QrAlreadyPaid,
    QrFail,
    QrNotFound,
)
from pao.payments.qr.models import (
    QR_TRANSITIONS,
    UNPAID,
    BankNotification,
    GatewayPayment,
    PaymentOutcome,
    QrDeposit,
    QrStatus,
)
from pao.payments.qr.promptpay import (
    LaoQr,
    PromptPayQr,
    build_laoqr,
    build_promptpay,
    proxy_kind,
)
from pao.site.settings import SiteSettings
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL, record_statement

log = structlog.get_logger(__name__)

# How long an expired/cancelled QR keeps its amount slot and can still be matched late.
LATE_WINDOW = timedelta(hours=24)
# Per-channel minimum (minor units per currency, spec §5/§9; ADR 0020); PAYTIMZ's may be
# overridden by a setting. The gateways are Thai: they take baht only. A bank QR's minimum is
# one baht or a thousand kip (the smallest kip note in use is 1,000).
MINIMUMS = {
    "WW": PerCurrency(THB=100_00),
    "PAYTIMZ": PerCurrency(THB=10_00),
    "PAYONEX": PerCurrency(THB=100_00),
}
BANK_MINIMUM = PerCurrency(THB=1_00, LAK=1_000_00)
# LAPNet member ids of Lao banks that may receive Lao QR payments.
LAPNET_BANK_IDS = {"BCEL": "27710418"}
SLOTS = 100

BANK_TRANSFER_REF = "bank_transfer"
GATEWAY_PAYMENT_REF = "gateway_payment"


def minimum_for(channel: str, site: SiteSettings, currency: Currency | str) -> int | None:
    """The smallest QR deposit of ``channel`` in ``currency``; ``None``: the channel takes no
    deposit in that currency."""
    if channel == "PAYTIMZ":
        override = site.paytimz_minimum.for_currency(currency)
        if override is not None:
            return max(override, 1)
    return MINIMUMS.get(channel, BANK_MINIMUM).for_currency(currency)


def check_amount(channel: str, amount: int, site: SiteSettings, currency: Currency | str) -> None:
    minimum = minimum_for(channel, site, currency)
    if minimum is None:
        raise CurrencyNotOffered()
    if amount < minimum:
        raise AmountBelowMinimum(minimum)


def new_order_ref() -> str:
    return "Q" + secrets.token_hex(12).upper()


async def qr_account(session: AsyncSession, *, code: str) -> ReceivingAccount:
    """The active receiving account behind a QR channel, or QR_FAIL."""
    code = code.upper()
    query = select(ReceivingAccount).where(
        ReceivingAccount.active.is_(True),
        ReceivingAccount.code == code,
        or_(
            ReceivingAccount.kind == ReceivingKind.GATEWAY,
            and_(
                ReceivingAccount.kind == ReceivingKind.BANK,
                ReceivingAccount.mode == ReceivingMode.AUTO,
            ),
        ),
    )
    account = (await session.execute(query.order_by(ReceivingAccount.id))).scalars().first()
    if account is None:
        raise QrFail(reason="no QR channel " + code)
    return account


def is_open(qr: QrDeposit, now: datetime) -> bool:
    return qr.status == QrStatus.PENDING and not qr.stale and qr.expires_at > now


async def current_qr(session: AsyncSession, *, member_id: int, channel: str) -> QrDeposit | None:
    """The member's QR currently offered in ``channel``, if any."""
    query = (
        select(QrDeposit)
        .where(
            QrDeposit.member_id == member_id,
            QrDeposit.channel == channel.upper(),
            QrDeposit.status == QrStatus.PENDING,
            QrDeposit.stale.is_(False),
            QrDeposit.expires_at > utcnow(),
        )
        .order_by(QrDeposit.created_at.desc(), QrDeposit.id.desc())
    )
    return (await session.execute(query)).scalars().first()


async def _supersede(session: AsyncSession, *, member_id: int, keep_id: int) -> None:
    await session.execute(
        update(QrDeposit)
        .where(
            QrDeposit.member_id == member_id,
            QrDeposit.id != keep_id,
            QrDeposit.status == QrStatus.PENDING,
            QrDeposit.stale.is_(False),
        )
        .values(stale=True)
    )


def _bank_payload(account: ReceivingAccount, amount: int) -> tuple[str, str]:
    """(payload, receiver) for a bank QR: Lao QR for a LAK account, else PromptPay."""
    try:
        if Currency(account.currency) is Currency.LAK:
            bank_id = LAPNET_BANK_IDS.get(account.code)
            if bank_id is None or not account.lao_receiver_id:
                raise QrFail(reason="account has no Lao QR receiver")
            lao = LaoQr(bank_id=bank_id, receiver_id=account.lao_receiver_id, amount=amount)
            return build_laoqr(lao), account.lao_receiver_id
        if not account.promptpay_id:
            raise QrFail(reason="account has no PromptPay id")
        proxy = account.promptpay_id
        promptpay = PromptPayQr(kind=proxy_kind(proxy), proxy=proxy, amount=amount)
        return build_promptpay(promptpay), proxy
    except PayloadError as exc:
        raise QrFail(reason=str(exc)) from None


async def create_bank_qr(
    session: AsyncSession,
    *,
    member: Member,
    account: ReceivingAccount,
    amount: int,
    site: SiteSettings,
) -> QrDeposit:
    """A dynamic PromptPay (or Lao) QR for ``account`` with an amount unique among its
    unpaid QRs."""
    currency = Currency(member.currency)
    if currency != account.currency:
        raise QrFail(reason="the account does not take the member's currency")
    check_amount(account.code, amount, site, currency)
    step = 100 if currency is Currency.LAK else 1
    if amount % step:
        raise Unprocessable("KEY_INVALID", field="amount")
    # One QR creation per receiving account at a time: the amount slot must not be taken twice.
    await session.execute(
        select(ReceivingAccount.id).where(ReceivingAccount.id == account.id).with_for_update()
    )
    now = utcnow()
    taken = set(
        (
            await session.execute(
                select(QrDeposit.amount).where(
                    QrDeposit.account_id == account.id,
                    QrDeposit.status.in_(UNPAID),
                    QrDeposit.expires_at > now - LATE_WINDOW,
                    QrDeposit.amount >= amount,
                    QrDeposit.amount < amount + SLOTS * step,
                )
            )
        ).scalars()
    )
    free = next((amount + i * step for i in range(SLOTS) if amount + i * step not in taken), None)
    if free is None:
        raise QrFail(reason="no free amount slot")
    payload, _receiver = _bank_payload(account, free)
    qr = QrDeposit(
        member_id=member.id,
        channel=account.code,
        is_gateway=False,
        account_id=account.id,
        requested_amount=amount,
        amount=free,
        currency=currency,
        status=QrStatus.PENDING,
        payload=payload,
        order_ref=new_order_ref(),
        expires_at=now + timedelta(minutes=site.qr_expire_minutes),
        created_at=now,
    )
    session.add(qr)
    await session.flush()
    await _supersede(session, member_id=member.id, keep_id=qr.id)
    return qr


async def store_gateway_qr(
    session: AsyncSession,
    *,
    member: Member,
    account: ReceivingAccount,
    amount: int,
    order_ref: str,
    order: GatewayOrder,
    expires_at: datetime,
) -> QrDeposit:
    """Record the gateway order created for the member (the call happened before, outside
    any transaction)."""
    existing = (
        await session.execute(select(QrDeposit).where(QrDeposit.order_ref == order_ref))
    ).scalar_one_or_none()
    if existing is not None:
        return existing
    qr = QrDeposit(
        member_id=member.id,
        channel=account.code,
        is_gateway=True,
        account_id=account.id,
        requested_amount=amount,
        amount=amount,
        currency=Currency(member.currency),
        status=QrStatus.PENDING,
        payload=order.payload,
        order_ref=order_ref,
        gateway_order_id=order.order_id,
        expires_at=expires_at,
    )
    session.add(qr)
    await session.flush()
    await _supersede(session, member_id=member.id, keep_id=qr.id)
    return qr


async def _lock_qr(session: AsyncSession, qr_id: int) -> QrDeposit:
    query = (
        select(QrDeposit)
        .where(QrDeposit.id == qr_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return (await session.execute(query)).scalar_one()


async def member_qr(session: AsyncSession, *, member: Member, qr_id: int) -> QrDeposit:
    """One of the member's QRs, whatever its status (another member's is not found)."""
    qr = await session.get(QrDeposit, qr_id)
    if qr is None or qr.member_id != member.id:
        raise QrNotFound()
    return qr


async def cancel_qr(session: AsyncSession, *, member: Member, qr_id: int) -> QrDeposit:
    """PENDING → CANCELLED (owner only; cancelling a cancelled/expired QR is a no-op)."""
    await member_qr(session, member=member, qr_id=qr_id)
    qr = await _lock_qr(session, qr_id)
    if qr.status in (QrStatus.PAID, QrStatus.PAID_LATE):
        raise QrAlreadyPaid()
    if qr.status == QrStatus.PENDING:
        await transition(
            session, qr, QrStatus.CANCELLED, QR_TRANSITIONS, actor=f"member:{member.id}"
        )
        await session.flush()
    return qr


async def _settle(session: AsyncSession, qr: QrDeposit, *, actor: str) -> PaymentOutcome:
    """Mark a locked QR paid; PAID_LATE when it was expired or cancelled."""
    now = utcnow()
    if qr.status == QrStatus.PENDING and qr.expires_at <= now:
        await transition(session, qr, QrStatus.EXPIRED, QR_TRANSITIONS, actor=actor)
    if qr.status == QrStatus.PENDING:
        await transition(session, qr, QrStatus.PAID, QR_TRANSITIONS, actor=actor)
        qr.paid_at = now
        return PaymentOutcome.CREDITED
    if qr.status in (QrStatus.EXPIRED, QrStatus.CANCELLED):
        await transition(
            session,
            qr,
            QrStatus.PAID_LATE,
            QR_TRANSITIONS,
            actor=actor,
            reason=f"paid after the QR was {qr.status.lower()}",
        )
        qr.paid_at = now
        log.warning("late QR payment credited", qr_id=qr.id, channel=qr.channel)
        return PaymentOutcome.CREDITED_LATE
    return PaymentOutcome.CREDITED_EXTRA


async def _credit(
    session: AsyncSession,
    *,
    qr: QrDeposit,
    amount: int,
    clearing_kind: AccountKind,
    clearing_owner: str = "",
    ref_type: str,
    ref_id: str,
    channel: str,
    actor: str,
) -> JournalEntry:
    return await credit_payment(
        session,
        member_id=qr.member_id,
        currency=Currency(qr.currency),
        amount=amount,
        clearing_kind=clearing_kind,
        clearing_owner=clearing_owner,
        from_label=qr.channel,
        memo=f"{qr.channel} QR {qr.order_ref}",
        ref_type=ref_type,
        ref_id=ref_id,
        channel=channel,
        actor=actor,
    )


async def credit_payment(
    session: AsyncSession,
    *,
    member_id: int,
    currency: Currency,
    amount: int,
    clearing_kind: AccountKind,
    clearing_owner: str = "",
    from_label: str,
    memo: str,
    ref_type: str,
    ref_id: str,
    channel: str,
    actor: str,
) -> JournalEntry:
    """Credit an incoming payment to a member's wallet: ledger entry from the clearing account
    (``clearing_kind``, ``clearing_owner``; the member's shard row), statement line,
    DepositCredited. Matched QRs and staff matching by hand both use it."""
    entry = await credit_wallet(
        session,
        source_kind=clearing_kind,
        source_owner=clearing_owner,
        member_id=member_id,
        currency=currency,
        amount=amount,
        kind="deposit",
        actor=actor,
        memo=memo,
    )
    await record_statement(
        session,
        member_id=member_id,
        statement_type=StatementType.DEPOSIT,
        status=StatementStatus.SUCCESS,
        amount=amount,
        currency=currency,
        from_label=from_label,
        to_label=WALLET_LABEL,
        ref_type=ref_type,
        ref_id=ref_id,
    )
    await publish(
        session,
        DepositCredited(
            member_id=member_id,
            amount=amount,
            currency=currency,
            channel=channel,
            reference=f"{ref_type}:{ref_id}",
        ),
    )
    return entry


@dataclass(frozen=True)
class NotificationResult:
    notification: BankNotification
    duplicate: bool


def normalise_proxy(proxy: str) -> str:
    """A PromptPay mobile as people write it (0812223333), whether the bank sends it in the
    QR's form (0066812223333), international (66812223333) or local; other ids unchanged."""
    text = proxy.strip()
    for prefix in ("0066", "66"):
        rest = text[len(prefix) :]
        if text.startswith(prefix) and len(rest) == 9 and rest.isdigit():
            return "0" + rest
    return text


async def _match_bank_qr(
    session: AsyncSession,
    *,
    amount: int,
    currency: Currency,
    receiver: str,
    payload: str | None,
) -> QrDeposit | None:
    receiver = normalise_proxy(receiver)
    accounts = select(ReceivingAccount.id).where(
        or_(ReceivingAccount.promptpay_id == receiver, ReceivingAccount.lao_receiver_id == receiver)
    )
    base = select(QrDeposit).where(
        QrDeposit.is_gateway.is_(False),
        QrDeposit.currency == currency,
        QrDeposit.account_id.in_(accounts),
    )
    # The same receiver and amount give the same payload text, so a payload names a *slot*,
    # not one QR: unpaid QRs win (PENDING first, newest first); a paid QR is matched only when
    # no unpaid one is (a second transfer for it: CREDITED_EXTRA).
    unpaid = base.where(
        QrDeposit.status.in_(UNPAID), QrDeposit.expires_at > utcnow() - LATE_WINDOW
    ).order_by((QrDeposit.status == QrStatus.PENDING).desc(), QrDeposit.created_at.desc())
    newest = base.order_by(QrDeposit.created_at.desc())
    queries = []
    if payload:
        queries.append(unpaid.where(QrDeposit.payload == payload.strip()))
    queries.append(unpaid.where(QrDeposit.amount == amount))
    if payload:
        queries.append(newest.where(QrDeposit.payload == payload.strip()))
    for query in queries:
        found = (await session.execute(query)).scalars().first()
        if found is not None:
            return found
    return None


async def handle_bank_notification(
    session: AsyncSession,
    *,
    transfer_id: str,
    amount: int,
    currency: Currency,
    receiver_proxy: str,
    qr_payload: str | None,
    paid_at: datetime,
    payer_bank: str | None = None,
    payer_account: str | None = None,
    payer_name: str | None = None,
) -> NotificationResult:
    """Record one incoming transfer (once per ``transfer_id``) and credit the matched QR.
    The payer's bank, account and name, when the bank sends them, are kept for a match by hand."""
    notification = BankNotification(
        transfer_id=transfer_id,
        amount=amount,
        currency=currency,
        receiver_proxy=receiver_proxy,
        qr_payload=qr_payload,
        paid_at=paid_at,
        payer_bank=(payer_bank or "").strip().upper() or None,
        payer_account=(payer_account or "").strip() or None,
        payer_name=(payer_name or "").strip() or None,
        outcome=PaymentOutcome.UNMATCHED,
    )
    try:
        async with session.begin_nested():
            session.add(notification)
            await session.flush()
    except IntegrityError:
        existing = (
            await session.execute(
                select(BankNotification).where(BankNotification.transfer_id == transfer_id)
            )
        ).scalar_one()
        return NotificationResult(existing, duplicate=True)
    found = await _match_bank_qr(
        session, amount=amount, currency=currency, receiver=receiver_proxy, payload=qr_payload
    )
    if found is None:
        log.warning("bank transfer matches no QR", transfer_id=transfer_id)
        return NotificationResult(notification, duplicate=False)
    qr = await _lock_qr(session, found.id)
    outcome = await _settle(session, qr, actor="bank")
    entry = await _credit(
        session,
        qr=qr,
        amount=amount,
        clearing_kind=AccountKind.BANK_CLEARING,
        ref_type=BANK_TRANSFER_REF,
        ref_id=transfer_id,
        channel="qr",
        actor="bank",
    )
    notification.qr_deposit_id = qr.id
    notification.outcome = outcome
    notification.entry_id = entry.id
    await session.flush()
    return NotificationResult(notification, duplicate=False)


async def record_gateway_payment(
    session: AsyncSession, *, gateway: str, payment: VerifiedPayment, source: str
) -> tuple[GatewayPayment, bool]:
    """Record a gateway's payment (once per gateway txn id) and credit its order's QR.

    Returns ``(row, duplicate)``. A second transaction for an already paid order is kept as
    IGNORED (a gateway pays an order once; the operator settles any such case with the
    gateway)."""
    row = GatewayPayment(
        gateway=gateway,
        txn_id=payment.txn_id,
        order_ref=payment.order_ref,
        amount=payment.amount,
        currency=payment.currency,
        source=source,
        outcome=PaymentOutcome.UNMATCHED,
    )
    try:
        async with session.begin_nested():
            session.add(row)
            await session.flush()
    except IntegrityError:
        existing = (
            await session.execute(
                select(GatewayPayment).where(
                    GatewayPayment.gateway == gateway, GatewayPayment.txn_id == payment.txn_id
                )
            )
        ).scalar_one()
        return existing, True
    found = (
        await session.execute(
            select(QrDeposit).where(
                QrDeposit.order_ref == payment.order_ref,
                QrDeposit.channel == gateway,
                QrDeposit.is_gateway.is_(True),
            )
        )
    ).scalar_one_or_none()
    if found is None or found.currency != payment.currency:
        log.warning("gateway payment matches no QR", gateway=gateway, txn_id=payment.txn_id)
        return row, False
    qr = await _lock_qr(session, found.id)
    row.qr_deposit_id = qr.id
    if qr.status in (QrStatus.PAID, QrStatus.PAID_LATE):
        row.outcome = PaymentOutcome.IGNORED
        log.warning("second gateway payment for a paid order", gateway=gateway, qr_id=qr.id)
        await session.flush()
        return row, False
    row.outcome = await _settle(session, qr, actor=f"gateway:{gateway}")
    entry = await _credit(
        session,
        qr=qr,
        amount=payment.amount,
        clearing_kind=AccountKind.GATEWAY_CLEARING,
        clearing_owner=gateway,
        ref_type=GATEWAY_PAYMENT_REF,
        ref_id=f"{gateway}:{payment.txn_id}",
        channel="gateway",
        actor=f"gateway:{gateway}",
    )
    row.entry_id = entry.id
    await session.flush()
    return row, False


async def expire_due(session: AsyncSession, *, limit: int = 100) -> int:
    """PENDING QRs past their expiry → EXPIRED (a small batch, rows claimed SKIP LOCKED)."""
    query = (
        select(QrDeposit)
        .where(QrDeposit.status == QrStatus.PENDING, QrDeposit.expires_at <= utcnow())
        .order_by(QrDeposit.expires_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = list((await session.execute(query)).scalars())
    for qr in rows:
        await transition(session, qr, QrStatus.EXPIRED, QR_TRANSITIONS, actor="system")
    await session.flush()
    return len(rows)


RECHECK_AFTER = timedelta(seconds=60)
QUERY_BEFORE_EXPIRY = timedelta(seconds=60)


async def claim_for_reconciliation(session: AsyncSession, *, limit: int = 20) -> list[QrDeposit]:
    """Gateway QRs whose status the reconciler should ask for: PENDING ones near or past
    expiry, and unpaid EXPIRED/CANCELLED ones within the late window (a dropped callback)."""
    now = utcnow()
    query = (
        select(QrDeposit)
        .where(
            QrDeposit.is_gateway.is_(True),
            or_(
                and_(
                    QrDeposit.status == QrStatus.PENDING,
                    QrDeposit.expires_at <= now + QUERY_BEFORE_EXPIRY,
                ),
                and_(
                    QrDeposit.status.in_((QrStatus.EXPIRED, QrStatus.CANCELLED)),
                    QrDeposit.expires_at > now - LATE_WINDOW,
                ),
            ),
            or_(QrDeposit.checked_at.is_(None), QrDeposit.checked_at <= now - RECHECK_AFTER),
        )
        .order_by(QrDeposit.expires_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = list((await session.execute(query)).scalars())
    for qr in rows:
        qr.checked_at = now
    await session.flush()
    return rows
