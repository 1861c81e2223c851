"""Incoming payments that matched no QR (outcome UNMATCHED), listed and matched by hand.

A bank transfer notification or a gateway payment that found no QR is kept UNMATCHED
(:mod:`pao.payments.qr.service`): the money is in the operator's account but nobody's wallet.
Staff find whose it is (a bank transfer names its payer when the bank says: the member whose
registered account paid is suggested, :mod:`pao.payments.qr.payer`) and :func:`match_payment`
credits that member through the same
:func:`credit_payment` the automatic match uses, from the same clearing account, exactly once:
the payment row is locked ``FOR UPDATE`` (SQLite: one writer at a time) and must still be
UNMATCHED; it then records MATCHED_BY_HAND, the member, who matched it, when, and the entry.

No blind match: it takes a note (the caller audits it), and crediting a member who is not the
owner of the paying account when that account is another member's takes an explicit
``confirm_other_owner`` (else :class:`PayerIsAnotherMember`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import String, func, literal, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.models import AccountKind
from pao.payments.exceptions import (
    DepositAlreadySettled,
    DepositCurrencyMismatch,
    DepositNotFound,
    MatchNoteRequired,
    PayerIsAnotherMember,
)
from pao.payments.qr.models import BankNotification, GatewayPayment, PaymentOutcome
from pao.payments.qr.payer import NOBODY, PayerOwners, payer_owners
from pao.payments.qr.service import BANK_TRANSFER_REF, GATEWAY_PAYMENT_REF, credit_payment
from pao.wallet.exceptions import MemberNotFound


class PaymentKind(StrEnum):
    BANK = "bank"
    GATEWAY = "gateway"


@dataclass(frozen=True)
class UnmatchedPayment:
    """One row of the list, whichever table it lives in."""

    kind: PaymentKind
    id: int
    amount: int
    currency: str
    reference: str  # the bank's transfer id, or GATEWAY:txn id
    detail: str  # the receiving PromptPay / Lao id, or the gateway order reference
    at: datetime
    outcome: PaymentOutcome
    member_id: int | None
    matched_by: str | None
    matched_at: datetime | None
    entry_id: int | None
    # Who paid, as the bank said (bank transfers only; any may be None).
    payer_bank: str | None = None
    payer_account: str | None = None
    payer_name: str | None = None


def describe(row: BankNotification | GatewayPayment) -> UnmatchedPayment:
    """One payment row as the list shows it."""
    bank = isinstance(row, BankNotification)
    return UnmatchedPayment(
        kind=PaymentKind.BANK if bank else PaymentKind.GATEWAY,
        id=row.id,
        amount=row.amount,
        currency=row.currency,
        reference=row.transfer_id
        if isinstance(row, BankNotification)
        else f"{row.gateway}:{row.txn_id}",
        detail=row.receiver_proxy if isinstance(row, BankNotification) else row.order_ref,
        at=row.paid_at if isinstance(row, BankNotification) else row.created_at,
        outcome=PaymentOutcome(row.outcome),
        member_id=row.member_id,
        matched_by=row.matched_by,
        matched_at=row.matched_at,
        entry_id=row.entry_id,
        payer_bank=row.payer_bank if isinstance(row, BankNotification) else None,
        payer_account=row.payer_account if isinstance(row, BankNotification) else None,
        payer_name=row.payer_name if isinstance(row, BankNotification) else None,
    )


def _union(outcome: PaymentOutcome) -> Any:
    bank = select(
        literal(PaymentKind.BANK.value, String).label("kind"),
        BankNotification.id,
        BankNotification.amount,
        BankNotification.currency,
        BankNotification.transfer_id.label("reference"),
        BankNotification.receiver_proxy.label("detail"),
        BankNotification.paid_at.label("at"),
        BankNotification.outcome,
        BankNotification.member_id,
        BankNotification.matched_by,
        BankNotification.matched_at,
        BankNotification.entry_id,
        BankNotification.payer_bank,
        BankNotification.payer_account,
        BankNotification.payer_name,
    ).where(BankNotification.outcome == outcome)
    gateway = select(
        literal(PaymentKind.GATEWAY.value, String).label("kind"),
        GatewayPayment.id,
        GatewayPayment.amount,
        GatewayPayment.currency,
        (GatewayPayment.gateway + ":" + GatewayPayment.txn_id).label("reference"),
        GatewayPayment.order_ref.label("detail"),
        GatewayPayment.created_at.label("at"),
        GatewayPayment.outcome,
        GatewayPayment.member_id,
        GatewayPayment.matched_by,
        GatewayPayment.matched_at,
        GatewayPayment.entry_id,
        literal(None, String).label("payer_bank"),
        literal(None, String).label("payer_account"),
        literal(None, String).label("payer_name"),
    ).where(GatewayPayment.outcome == outcome)
    return union_all(bank, gateway).subquery()


async def count_payments(
    session: AsyncSession, *, outcome: PaymentOutcome = PaymentOutcome.UNMATCHED
) -> int:
    """How many bank and gateway payments have ``outcome``: by default those still waiting to
    be matched by hand (a payment matched by hand is MATCHED_BY_HAND and leaves the count)."""
    total = await session.scalar(select(func.count()).select_from(_union(outcome)))
    return int(total or 0)


async def list_payments(
    session: AsyncSession,
    *,
    outcome: PaymentOutcome = PaymentOutcome.UNMATCHED,
    offset: int,
    limit: int,
) -> tuple[list[UnmatchedPayment], int]:
    """One page of bank and gateway payments with ``outcome``, newest first, and the count."""
    rows = _union(outcome)
    total = await count_payments(session, outcome=outcome)
    page = await session.execute(
        select(rows)
        .order_by(rows.c.at.desc(), rows.c.kind, rows.c.id.desc())
        .offset(offset)
        .limit(limit)
    )
    items = [
        UnmatchedPayment(
            kind=PaymentKind(r.kind),
            id=r.id,
            amount=r.amount,
            currency=r.currency,
            reference=r.reference,
            detail=r.detail,
            at=r.at,
            outcome=PaymentOutcome(r.outcome),
            member_id=r.member_id,
            matched_by=r.matched_by,
            matched_at=r.matched_at,
            entry_id=r.entry_id,
            payer_bank=r.payer_bank,
            payer_account=r.payer_account,
            payer_name=r.payer_name,
        )
        for r in page
    ]
    return items, total


async def _lock(
    session: AsyncSession, kind: PaymentKind, payment_id: int
) -> BankNotification | GatewayPayment:
    row: BankNotification | GatewayPayment | None
    if kind is PaymentKind.BANK:
        row = (
            await session.execute(
                select(BankNotification)
                .where(BankNotification.id == payment_id)
                .with_for_update()
                .execution_options(populate_existing=True)
            )
        ).scalar_one_or_none()
    else:
        row = (
            await session.execute(
                select(GatewayPayment)
                .where(GatewayPayment.id == payment_id)
                .with_for_update()
                .execution_options(populate_existing=True)
            )
        ).scalar_one_or_none()
    if row is None:
        raise DepositNotFound()
    return row


async def get_payment(
    session: AsyncSession, *, kind: PaymentKind, payment_id: int
) -> BankNotification | GatewayPayment:
    """One bank or gateway payment, whatever its outcome."""
    row: BankNotification | GatewayPayment | None
    if kind is PaymentKind.BANK:
        row = await session.get(BankNotification, payment_id)
    else:
        row = await session.get(GatewayPayment, payment_id)
    if row is None:
        raise DepositNotFound()
    return row


async def owners_of(session: AsyncSession, row: BankNotification | GatewayPayment) -> PayerOwners:
    """The members whose registered account paid ``row`` (a gateway names no payer)."""
    if not isinstance(row, BankNotification):
        return NOBODY
    return await payer_owners(session, payer_bank=row.payer_bank, payer_account=row.payer_account)


async def match_payment(
    session: AsyncSession,
    *,
    kind: PaymentKind,
    payment_id: int,
    member_id: int,
    actor: str,
    note: str | None,
    confirm_other_owner: bool = False,
) -> BankNotification | GatewayPayment:
    """Credit an UNMATCHED payment to ``member_id``, once; returns the row as it now stands.

    Refused without a note (:class:`MatchNoteRequired`), and, when the paying account is
    registered to members of whom ``member_id`` is not one, unless ``confirm_other_owner``
    (:class:`PayerIsAnotherMember`)."""
    if not note or not note.strip():
        raise MatchNoteRequired()
    row = await _lock(session, kind, payment_id)
    if row.outcome != PaymentOutcome.UNMATCHED:
        raise DepositAlreadySettled()
    member = await session.get(Member, member_id)
    if member is None:
        raise MemberNotFound()
    if row.currency != member.currency:
        raise DepositCurrencyMismatch()
    owners = await owners_of(session, row)
    if owners.members and member.id not in owners.ids and not confirm_other_owner:
        raise PayerIsAnotherMember(ownerIds=sorted(owners.ids))
    currency = Currency(row.currency)
    if isinstance(row, BankNotification):
        entry = await credit_payment(
            session,
            member_id=member.id,
            currency=currency,
            amount=row.amount,
            clearing_kind=AccountKind.BANK_CLEARING,
            from_label="BANK",
            memo=f"bank transfer {row.transfer_id} matched by {actor}",
            ref_type=BANK_TRANSFER_REF,
            ref_id=row.transfer_id,
            channel="qr",
            actor=actor,
        )
    else:
        entry = await credit_payment(
            session,
            member_id=member.id,
            currency=currency,
            amount=row.amount,
            clearing_kind=AccountKind.GATEWAY_CLEARING,
            clearing_owner=row.gateway,
            from_label=row.gateway,
            memo=f"{row.gateway} payment {row.txn_id} matched by {actor}",
            ref_type=GATEWAY_PAYMENT_REF,
            ref_id=f"{row.gateway}:{row.txn_id}",
            channel="gateway",
            actor=actor,
        )
    row.outcome = PaymentOutcome.MATCHED_BY_HAND
    row.member_id = member.id
    row.matched_by = actor[:80]
    row.matched_at = utcnow()
    row.entry_id = entry.id
    await session.flush()
    return row
