"""Paying approved withdrawals through the bank, once, whatever happens in between.

Life of a payout (withdrawal statuses in brackets)::

    approve ──► Payout PENDING [APPROVED] ──bank SUCCESS──► SUCCEEDED [PAID]   hold posted
                      │                  └─bank FAILED───► FAILED    [FAILED] hold voided
                      └─timeout / 5xx / bank PENDING: stays PENDING; the reconciler asks the
                        bank (status by payout id; never heard of → send again, same id)

Each step is its own short transaction; no transaction is open while the bank is called:

1. *queue* (caller's transaction): the withdrawal PENDING → APPROVED and a Payout row;
2. *claim* (transaction): lock the payout, skip it unless PENDING and due, count the attempt
   and push ``next_attempt_at`` forward (a lease: another process leaves it alone);
3. *call* the bank: create (first attempt) or status, then create again if unknown to it;
4. *apply* (transaction): lock the payout again; SUCCESS → mark_withdrawal_paid, FAILED →
   mark_withdrawal_failed (money back); anything else → stays PENDING for the reconciler.

The bank deduplicates by payout id, so even two processes racing past the lease cannot pay
twice, and step 4 applies an outcome only to a PENDING payout.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

import structlog
from sqlalchemy import ColumnElement, and_, false, or_, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.identity.changes import bank_changed_since, bank_changed_since_clause, hours_before
from pao.identity.links import AccountPaid, LinkSignal, linked_clause
from pao.kit.clock import utcnow
from pao.kit.states import transition
from pao.payments.payouts.adapter import BankPayoutResult, BankPayoutState, PayoutBank
from pao.payments.payouts.models import PAYOUT_TRANSITIONS, Payout, PayoutStatus
from pao.site.settings import SiteSettings, load_site_settings
from pao.wallet.claims import Claimant
from pao.wallet.models import Withdrawal, WithdrawalStatus
from pao.wallet.withdrawals import (
    approve_for_payout,
    mark_withdrawal_failed,
    mark_withdrawal_paid,
)

log = structlog.get_logger(__name__)

BATCH = 10
ACTOR = "payouts"


@dataclass(frozen=True)
class PayoutContext:
    sessionmaker: async_sessionmaker[AsyncSession]
    bank: PayoutBank


def backoff(attempts: int) -> timedelta:
    """Wait before asking again: 30 s, 1 min, 2 min … at most 10 min."""
    return timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 600))


async def queue_payout(
    session: AsyncSession,
    *,
    withdrawal_id: int,
    actor: str,
    note: str | None = None,
    claimant: Claimant | None = None,
) -> Payout:
    """Approve a PENDING withdrawal and create its payout (step 1; the caller commits, then
    calls :func:`process_payout`). ``claimant``: the cashier deciding, who must hold the
    withdrawal's claim (``None``: the shell and the auto-approve job, outside the queue)."""
    withdrawal = await approve_for_payout(
        session, withdrawal_id=withdrawal_id, actor=actor, note=note, claimant=claimant
    )
    payout = Payout(
        withdrawal_id=withdrawal.id,
        amount=withdrawal.amount,
        currency=withdrawal.currency,
        bank_code=withdrawal.bank_code,
        account_no=withdrawal.bank_account_no,
        account_name=withdrawal.bank_account_name,
        status=PayoutStatus.PENDING,
        attempts=0,
        next_attempt_at=utcnow(),
    )
    session.add(payout)
    await session.flush()
    return payout


async def _lock(session: AsyncSession, payout_id: int) -> Payout:
    query = (
        select(Payout)
        .where(Payout.id == payout_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return (await session.execute(query)).scalar_one()


async def _claim(ctx: PayoutContext, payout_id: int) -> Payout | None:
    async with ctx.sessionmaker() as session, session.begin():
        payout = await _lock(session, payout_id)
        if payout.status != PayoutStatus.PENDING or payout.next_attempt_at > utcnow():
            return None
        payout.attempts += 1
        payout.next_attempt_at = utcnow() + backoff(payout.attempts)
        return payout


async def _call_bank(ctx: PayoutContext, payout: Payout) -> BankPayoutResult:
    if payout.attempts > 1:
        known = await ctx.bank.status(payout_id=payout.bank_payout_id)
        if known.state is not BankPayoutState.NOT_FOUND:
            return known
    return await ctx.bank.create(
        payout_id=payout.bank_payout_id,
        bank_code=payout.bank_code,
        account_no=payout.account_no,
        account_name=payout.account_name,
        amount=payout.amount,
        currency=payout.currency,
    )


async def apply_outcome(
    session: AsyncSession, *, payout_id: int, result: BankPayoutResult
) -> Payout:
    """Step 4: settle a PENDING payout on a definite answer; anything else changes nothing
    but the last error."""
    payout = await _lock(session, payout_id)
    if payout.status != PayoutStatus.PENDING:
        return payout
    if result.state is BankPayoutState.SUCCESS:
        await transition(session, payout, PayoutStatus.SUCCEEDED, PAYOUT_TRANSITIONS, actor=ACTOR)
        payout.bank_reference = result.reference
        payout.settled_at = utcnow()
        await mark_withdrawal_paid(
            session,
            withdrawal_id=payout.withdrawal_id,
            actor=ACTOR,
            memo=f"payout {payout.bank_payout_id} ref {result.reference or '-'}",
        )
    elif result.state is BankPayoutState.FAILED:
        reason = f"payout failed: {result.reason or 'refused by the bank'}"
        await transition(
            session, payout, PayoutStatus.FAILED, PAYOUT_TRANSITIONS, actor=ACTOR, reason=reason
        )
        payout.last_error = reason[:200]
        payout.settled_at = utcnow()
        await mark_withdrawal_failed(
            session, withdrawal_id=payout.withdrawal_id, actor=ACTOR, reason=reason
        )
    else:
        payout.last_error = f"{result.state}: {result.reason or ''}"[:200]
    await session.flush()
    return payout


async def process_payout(ctx: PayoutContext, *, payout_id: int) -> Payout | None:
    """Steps 2–4 for one payout; None when it was not due (or already settled)."""
    payout = await _claim(ctx, payout_id)
    if payout is None:
        return None
    result = await _call_bank(ctx, payout)
    log.info("payout answer", payout_id=payout.id, state=result.state, reason=result.reason)
    async with ctx.sessionmaker() as session, session.begin():
        return await apply_outcome(session, payout_id=payout_id, result=result)


async def send_payout_after_commit(ctx: PayoutContext, *, payout_id: int) -> None:
    """Steps 2–4 run after the approving request committed (a background task): any failure
    is logged and left to the reconciler, the approval stands and nothing is paid twice."""
    try:
        await process_payout(ctx, payout_id=payout_id)
    except Exception:
        log.exception("payout not settled now; the reconciler will", payout_id=payout_id)


def held_for_bank_change(*, hold_hours: int, dialect: str) -> ColumnElement[bool]:
    """SQL on withdrawals: the member's bank account changed within ``hold_hours`` before the
    withdrawal was requested, or at any time since. Such a withdrawal waits for a cashier:
    with a stolen login, the thief's first move is to point payouts at their own account."""
    if hold_hours <= 0:
        return false()
    since = hours_before(Withdrawal.created_at, hold_hours, dialect=dialect)
    return bank_changed_since_clause(Withdrawal.member_id, since)


def hold_signals(site: SiteSettings) -> frozenset[LinkSignal]:
    """The linked-account signals the operator holds withdrawals for (hold* settings)."""
    chosen = {
        LinkSignal.BANK_ACCOUNT: site.hold_linked_bank_account,
        LinkSignal.HOLDER_NAME: site.hold_linked_holder_name,
        LinkSignal.DEVICE: site.hold_linked_device,
        LinkSignal.ADDRESS: site.hold_linked_address,
    }
    return frozenset(signal for signal, on in chosen.items() if on)


def held_for_links(site: SiteSettings, *, dialect: str) -> ColumnElement[bool]:
    """SQL on withdrawals: another member is linked to the withdrawal's member by a signal the
    operator holds for (:func:`hold_signals`); the account compared is the one it pays to.
    Such a withdrawal is flagged in the queue and waits for a cashier."""
    return linked_clause(
        Withdrawal.member_id,
        account=AccountPaid(Withdrawal.bank_account_no, Withdrawal.bank_account_name),
        signals=hold_signals(site),
        window_hours=site.linked_address_window_hours,
        dialect=dialect,
    )


async def is_held_for_bank_change(
    session: AsyncSession, *, withdrawal: Withdrawal, hold_hours: int
) -> bool:
    """:func:`held_for_bank_change` for one withdrawal (the operator's tools show it)."""
    if hold_hours <= 0:
        return False
    return await bank_changed_since(
        session,
        member_id=withdrawal.member_id,
        since=withdrawal.created_at - timedelta(hours=hold_hours),
    )


async def auto_approve(ctx: PayoutContext) -> int:
    """The auto-approve job: PENDING withdrawals up to ``withdrawAutoApproveMax`` are approved
    and paid without an operator, except those held after a bank account change
    (:func:`held_for_bank_change`) or for a linked account (:func:`held_for_links`). Returns
    how many it took."""
    async with ctx.sessionmaker() as session, session.begin():
        site = await load_site_settings(session)
        # Per currency: a withdrawal is taken when its own currency's limit covers it.
        limits = {
            currency: limit
            for currency, limit in site.withdraw_auto_approve_max.items()
            if limit is not None and limit > 0
        }
        if not limits:
            return 0
        dialect = session.get_bind().dialect.name
        held = or_(
            held_for_bank_change(hold_hours=site.bank_change_hold_hours, dialect=dialect),
            held_for_links(site, dialect=dialect),
        )
        ids = list(
            (
                await session.execute(
                    select(Withdrawal.id)
                    .where(
                        Withdrawal.status == WithdrawalStatus.PENDING,
                        or_(
                            *(
                                and_(Withdrawal.currency == currency, Withdrawal.amount <= limit)
                                for currency, limit in limits.items()
                            )
                        ),
                        ~held,
                    )
                    .order_by(Withdrawal.id)
                    .limit(BATCH)
                    .with_for_update(skip_locked=True)
                )
            ).scalars()
        )
        payouts = [
            await queue_payout(
                session, withdrawal_id=wid, actor="auto-approve", note="auto-approved"
            )
            for wid in ids
        ]
        payout_ids = [p.id for p in payouts]
    for payout_id in payout_ids:
        await process_payout(ctx, payout_id=payout_id)
    return len(payout_ids)


async def reconcile(ctx: PayoutContext) -> int:
    """The reconciler job: ask the bank about payouts still PENDING once they are due."""
    async with ctx.sessionmaker() as session, session.begin():
        ids = list(
            (
                await session.execute(
                    select(Payout.id)
                    .where(
                        Payout.status == PayoutStatus.PENDING,
                        Payout.next_attempt_at <= utcnow(),
                    )
                    .order_by(Payout.next_attempt_at, Payout.id)
                    .limit(BATCH)
                    .with_for_update(skip_locked=True)
                )
            ).scalars()
        )
    handled = 0
    for payout_id in ids:
        if await process_payout(ctx, payout_id=payout_id) is not None:
            handled += 1
    return handled
