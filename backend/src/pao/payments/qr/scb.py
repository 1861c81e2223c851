"""Bank QR deposits through SCB's QR payment API (``PAO_BANK_API=scb``; ADR 0029): the
database side. The calls to SCB are made by the callers (:mod:`pao.payments.qr.scb_flow`)
between transactions, never inside one.

* A QR order is SCB's bill payment QR: ``ref1`` is Pao's ``order_ref``, so the amount needs
  no extra satang to be told apart (ADR 0005's slots are for payments that carry no reference).
* SCB's payment confirmation is a claim (:class:`ScbCallback`, unique by SCB's
  ``transactionId``); it is settled once, under the row's lock, when SCB's inquiry answers:
  the payment found → a :class:`BankNotification` (``transfer_id`` ``scb:<transactionId>``,
  unique: the last guard against a double credit) matched to the QR by ref1 and amount and
  credited through the same path as every bank QR (late, extra and unmatched included);
  not found or no answer → still PENDING, asked again by the reconciler; never found within
  :data:`GIVE_UP_AFTER` → UNCONFIRMED, for staff.
* A confirmation SCB never delivers: each SCB QR is also asked about by Pao itself, from its
  expiry on a short schedule (:class:`ScbQrOrder`); what SCB's inquiry lists is recorded as a
  confirmed claim (same ``transactionId`` dedup) and credited the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import structlog
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.kit.states import transition
from pao.ledger.models import AccountKind
from pao.payments.accounts import ReceivingAccount
from pao.payments.qr import service
from pao.payments.qr.models import (
    SCB_CALLBACK_TRANSITIONS,
    UNPAID,
    BankNotification,
    PaymentOutcome,
    QrDeposit,
    QrStatus,
    ScbCallback,
    ScbCallbackState,
    ScbQrOrder,
)
from pao.payments.scb.confirmation import ScbConfirmation
from pao.payments.scb.qrpay import ScbPayment

log = structlog.get_logger(__name__)

# An SCB QR is asked about by Pao itself (its confirmation may never come) this long after
# its expiry, then after each of POLL_SCHEDULE's delays in turn, then no more.
POLL_AFTER = timedelta(seconds=30)
POLL_SCHEDULE = (
    timedelta(minutes=5),
    timedelta(minutes=30),
    timedelta(hours=2),
    timedelta(hours=12),
)
# A claim SCB never confirms is asked about for this long, then left for staff.
GIVE_UP_AFTER = service.LATE_WINDOW
# Asked again after a minute, then twice as long each time, at most an hour apart.
RECHECK_AFTER = timedelta(seconds=60)
RECHECK_AT_MOST = timedelta(hours=1)
TRANSFER_PREFIX = "scb:"


async def store_qr(
    session: AsyncSession,
    *,
    member: Member,
    account: ReceivingAccount,
    amount: int,
    order_ref: str,
    payload: str,
    expires_at: datetime,
) -> QrDeposit:
    """Record the SCB QR made for the member (SCB was called before, outside any
    transaction); a replayed intent finds the QR it made."""
    existing = (
        await session.execute(select(QrDeposit).where(QrDeposit.order_ref == order_ref))
    ).scalar_one_or_none()
    if existing is not None:
        return existing
    qr = QrDeposit(
        member_id=member.id,
        channel=account.code,
        is_gateway=False,
        account_id=account.id,
        requested_amount=amount,
        amount=amount,
        currency=Currency.THB,
        status=QrStatus.PENDING,
        payload=payload,
        order_ref=order_ref,
        expires_at=expires_at,
    )
    session.add(qr)
    await session.flush()
    session.add(ScbQrOrder(qr_deposit_id=qr.id, checks=0, next_check_at=expires_at + POLL_AFTER))
    await service._supersede(session, member_id=member.id, keep_id=qr.id)
    return qr


async def receive(session: AsyncSession, note: ScbConfirmation) -> tuple[ScbCallback, bool]:
    """Keep SCB's confirmation once per ``transactionId``; ``(row, duplicate)``."""
    row = ScbCallback(
        transaction_id=note.transaction_id,
        ref1=note.ref1,
        amount=note.amount,
        paid_at=note.paid_at,
        payer_bank=note.sending_bank or None,
        payer_account=note.payer_account or None,
        payer_name=note.payer_name or None,
        status=ScbCallbackState.PENDING,
        attempts=0,
    )
    return await _keep(session, row)


async def _keep(session: AsyncSession, row: ScbCallback) -> tuple[ScbCallback, bool]:
    """Insert ``row``, or find the claim already kept for its ``transactionId``."""
    try:
        async with session.begin_nested():
            session.add(row)
            await session.flush()
    except IntegrityError:
        query = select(ScbCallback).where(ScbCallback.transaction_id == row.transaction_id)
        return (await session.execute(query)).scalar_one(), True
    return row, False


@dataclass(frozen=True)
class Claim:
    """What the confirmation step needs of a claim, read before its transaction ends."""

    id: int
    transaction_id: str
    ref1: str
    paid_at: datetime
    pending: bool

    @classmethod
    def of(cls, row: ScbCallback) -> Claim:
        pending = row.status == ScbCallbackState.PENDING
        return cls(row.id, row.transaction_id, row.ref1, row.paid_at, pending)


def confirming(claim: Claim, found: list[ScbPayment], biller_id: str) -> ScbPayment | None:
    """SCB's own record of the claimed payment: the same transaction, reference and biller."""
    for payment in found:
        if (
            payment.transaction_id == claim.transaction_id
            and payment.ref1 == claim.ref1
            and payment.biller_id in ("", biller_id)
        ):
            return payment
    return None


async def _lock(session: AsyncSession, callback_id: int) -> ScbCallback:
    query = (
        select(ScbCallback)
        .where(ScbCallback.id == callback_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return (await session.execute(query)).scalar_one()


async def settle(
    session: AsyncSession,
    *,
    callback_id: int,
    payment: ScbPayment | None,
    answer: str,
) -> ScbCallback:
    """Apply what SCB's inquiry said about a claim (``payment`` None: not confirmed, for
    ``answer``'s reason). Once: a claim no longer PENDING is left as it is."""
    callback = await _lock(session, callback_id)
    if callback.status != ScbCallbackState.PENDING:
        return callback
    now = utcnow()
    callback.attempts += 1
    callback.next_check_at = now + min(
        RECHECK_AFTER * 2 ** min(callback.attempts - 1, 10), RECHECK_AT_MOST
    )
    callback.last_answer = answer[:200]
    if payment is None:
        if callback.created_at <= now - GIVE_UP_AFTER:
            await transition(
                session, callback, ScbCallbackState.UNCONFIRMED, SCB_CALLBACK_TRANSITIONS,
                actor="bank:scb", reason=answer[:200],
            )  # fmt: skip
            log.warning("scb payment never confirmed", callback_id=callback.id)
        await session.flush()
        return callback
    await transition(
        session, callback, ScbCallbackState.CONFIRMED, SCB_CALLBACK_TRANSITIONS, actor="bank:scb"
    )
    notification = await _credit(session, callback, payment)
    callback.notification_id = notification.id
    await session.flush()
    return callback


async def _credit(
    session: AsyncSession, callback: ScbCallback, payment: ScbPayment
) -> BankNotification:
    """Record the confirmed payment and credit the QR it pays (ref1 and amount): the same
    outcomes as any bank QR payment; an amount that differs matches no QR (staff judge)."""
    notification = BankNotification(
        transfer_id=TRANSFER_PREFIX + payment.transaction_id,
        amount=payment.amount,
        currency=Currency.THB,
        receiver_proxy=payment.biller_id or "SCB",
        qr_payload=None,
        paid_at=callback.paid_at,
        payer_bank=callback.payer_bank,
        payer_account=callback.payer_account,
        payer_name=callback.payer_name,
        outcome=PaymentOutcome.UNMATCHED,
    )
    session.add(notification)
    await session.flush()
    found = (
        await session.execute(
            select(QrDeposit).where(
                QrDeposit.order_ref == payment.ref1,
                QrDeposit.is_gateway.is_(False),
                QrDeposit.currency == Currency.THB,
                QrDeposit.amount == payment.amount,
            )
        )
    ).scalar_one_or_none()
    if found is None:
        log.warning("scb payment matches no QR", callback_id=callback.id)
        return notification
    qr = await service._lock_qr(session, found.id)
    outcome = await service._settle(session, qr, actor="bank:scb")
    entry = await service._credit(
        session,
        qr=qr,
        amount=payment.amount,
        clearing_kind=AccountKind.BANK_CLEARING,
        ref_type=service.BANK_TRANSFER_REF,
        ref_id=notification.transfer_id,
        channel="qr",
        actor="bank:scb",
    )
    notification.qr_deposit_id = qr.id
    notification.outcome = outcome
    notification.entry_id = entry.id
    return notification


async def claim_pending(session: AsyncSession, *, limit: int = 20) -> list[ScbCallback]:
    """Claims due to be asked about again, pushed :data:`RECHECK_AFTER` ahead at once so that
    another process's reconciler skips them."""
    now = utcnow()
    query = (
        select(ScbCallback)
        .where(
            ScbCallback.status == ScbCallbackState.PENDING,
            or_(ScbCallback.next_check_at.is_(None), ScbCallback.next_check_at <= now),
        )
        .order_by(ScbCallback.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    rows = list((await session.execute(query)).scalars())
    for row in rows:
        row.next_check_at = now + RECHECK_AFTER
    await session.flush()
    return rows


@dataclass(frozen=True)
class DueOrder:
    """An SCB QR to ask SCB's inquiry about, read before its transaction ends."""

    order_ref: str
    created_at: datetime
    expires_at: datetime


async def claim_due_orders(session: AsyncSession, *, limit: int = 20) -> list[DueOrder]:
    """SCB QRs due to be asked about (their confirmation may have been lost), each moved to
    its next check at once (or off the schedule: paid, or its checks done)."""
    now = utcnow()
    query = (
        select(ScbQrOrder)
        .where(ScbQrOrder.next_check_at <= now)
        .order_by(ScbQrOrder.next_check_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    due: list[DueOrder] = []
    for order in list((await session.execute(query)).scalars()):
        qr = await session.get(QrDeposit, order.qr_deposit_id)
        done = qr is None or order.checks >= len(POLL_SCHEDULE) or qr.status not in UNPAID
        order.next_check_at = None if done else now + POLL_SCHEDULE[order.checks]
        order.checks += 1
        if qr is not None and qr.status in UNPAID:
            due.append(DueOrder(qr.order_ref, qr.created_at, qr.expires_at))
    await session.flush()
    return due


async def record_found(session: AsyncSession, payment: ScbPayment) -> ScbCallback:
    """A payment Pao found by asking SCB's inquiry itself: as trusted as a confirmed claim, and
    deduplicated with the claims by SCB's ``transactionId``."""
    row = ScbCallback(
        transaction_id=payment.transaction_id,
        ref1=payment.ref1,
        amount=payment.amount,
        paid_at=payment.paid_at or utcnow(),
        status=ScbCallbackState.PENDING,
        attempts=0,
    )
    kept, _duplicate = await _keep(session, row)
    answer = "found by Pao's own inquiry (no confirmation received)"
    return await settle(session, callback_id=kept.id, payment=payment, answer=answer)
