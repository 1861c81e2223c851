"""Claims on the withdrawal queue: a cashier claims a PENDING withdrawal so that two cashiers
never work the same one.

A claim names a staff id (and its label) and lapses after :data:`CLAIM_TTL`; claiming again
by the same staff member extends it, anyone else is refused with ``WITHDRAWAL_CLAIMED`` while
it is unexpired. Only the claimer may decide (:func:`check_claimant`, called by the decision
functions of :mod:`pao.wallet.withdrawals` under the row lock). ``pao ops`` passes no
claimant: an operator at the shell acts outside the queue and bypasses claims.

Every change locks the withdrawal row first, so two cashiers claiming at once are serialised
and exactly one wins. :func:`claim_next` ("claim next": the oldest PENDING withdrawal nobody
claims) locks its candidate with ``SKIP LOCKED``, so two cashiers pressing it at once get two
different withdrawals instead of one of them waiting and then failing (on SQLite every
transaction is ``BEGIN IMMEDIATE``: one at a time, the second sees the first's claim).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.kit.events import WithdrawalChanged, publish
from pao.wallet.exceptions import (
    NothingToClaim,
    WithdrawalClaimed,
    WithdrawalNotClaimed,
    WithdrawalStatusConflict,
)
from pao.wallet.models import Withdrawal, WithdrawalStatus
from pao.wallet.rows import lock_withdrawal

CLAIM_TTL = timedelta(minutes=15)


@dataclass(frozen=True)
class Claimant:
    """The cashier acting: a staff id and the label shown to the others."""

    staff_id: int
    label: str


def claim_active(withdrawal: Withdrawal, *, now: datetime | None = None) -> bool:
    expires = withdrawal.claim_expires_at
    return (
        withdrawal.claimed_by_staff_id is not None
        and expires is not None
        and expires > (now or utcnow())
    )


def check_claimant(withdrawal: Withdrawal, claimant: Claimant | None) -> None:
    """Refuse a decision by anyone but the current claimer (``None``: the shell, bypass)."""
    if claimant is None:
        return
    if not claim_active(withdrawal):
        raise WithdrawalNotClaimed(withdrawal_id=withdrawal.id)
    if withdrawal.claimed_by_staff_id != claimant.staff_id:
        raise WithdrawalClaimed(withdrawal_id=withdrawal.id, claimed_by=withdrawal.claimed_by)


async def _changed(session: AsyncSession, withdrawal: Withdrawal) -> None:
    await publish(
        session,
        WithdrawalChanged(
            withdrawal_id=withdrawal.id,
            status=str(withdrawal.status),
            claimed_by=withdrawal.claimed_by if claim_active(withdrawal) else None,
        ),
    )


async def claim_withdrawal(
    session: AsyncSession, *, withdrawal_id: int, claimant: Claimant
) -> Withdrawal:
    """Claim (or extend one's own claim on) a PENDING withdrawal for :data:`CLAIM_TTL`."""
    withdrawal = await lock_withdrawal(session, withdrawal_id)
    if withdrawal.status != WithdrawalStatus.PENDING:
        raise WithdrawalStatusConflict(
            withdrawal_id=withdrawal.id, status=str(withdrawal.status), wanted="claimed"
        )
    if claim_active(withdrawal) and withdrawal.claimed_by_staff_id != claimant.staff_id:
        raise WithdrawalClaimed(withdrawal_id=withdrawal.id, claimed_by=withdrawal.claimed_by)
    return await _take(session, withdrawal, claimant)


async def _take(session: AsyncSession, withdrawal: Withdrawal, claimant: Claimant) -> Withdrawal:
    """Give the (locked) withdrawal's claim to ``claimant`` for :data:`CLAIM_TTL`."""
    withdrawal.claimed_by_staff_id = claimant.staff_id
    withdrawal.claimed_by = claimant.label[:80]
    withdrawal.claim_expires_at = utcnow() + CLAIM_TTL
    await session.flush()
    await _changed(session, withdrawal)
    return withdrawal


async def claim_next(session: AsyncSession, *, claimant: Claimant) -> Withdrawal:
    """Claim the oldest PENDING withdrawal that nobody claims (a lapsed claim counts as none);
    ``WITHDRAWAL_QUEUE_EMPTY`` when there is none. The candidate is read under
    ``FOR UPDATE SKIP LOCKED``: a row another cashier is claiming at this moment is passed
    over, and PostgreSQL re-checks the conditions on the row's newest version, so a claim
    committed meanwhile is seen."""
    now = utcnow()
    query = (
        select(Withdrawal)
        .where(
            Withdrawal.status == WithdrawalStatus.PENDING,
            or_(
                Withdrawal.claimed_by_staff_id.is_(None),
                Withdrawal.claim_expires_at.is_(None),
                Withdrawal.claim_expires_at <= now,
            ),
        )
        .order_by(Withdrawal.created_at, Withdrawal.id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    )
    withdrawal = (await session.execute(query)).scalar_one_or_none()
    if withdrawal is None:
        raise NothingToClaim()
    return await _take(session, withdrawal, claimant)


async def release_withdrawal(
    session: AsyncSession, *, withdrawal_id: int, claimant: Claimant | None
) -> Withdrawal:
    """Give a claim up. Only its holder may, while it runs (``None``: the shell, any claim);
    releasing what nobody claims changes nothing."""
    withdrawal = await lock_withdrawal(session, withdrawal_id)
    if (
        claimant is not None
        and claim_active(withdrawal)
        and withdrawal.claimed_by_staff_id != claimant.staff_id
    ):
        raise WithdrawalClaimed(withdrawal_id=withdrawal.id, claimed_by=withdrawal.claimed_by)
    withdrawal.claimed_by_staff_id = None
    withdrawal.claimed_by = None
    withdrawal.claim_expires_at = None
    await session.flush()
    await _changed(session, withdrawal)
    return withdrawal
