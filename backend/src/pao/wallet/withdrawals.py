"""Withdrawals: the member asks, the money is held, the operator decides.

Life of a withdrawal (every change goes through :data:`WITHDRAWAL_TRANSITIONS`)::

    PENDING ──approve──► APPROVED ──paid──► PAID      hold posted to PAYOUT_CLEARING
       │                     └──failed──► FAILED     hold voided: money back
       └──reject──► REJECTED                          hold voided: money back

Today ``approve`` means "the operator paid it by hand" and runs APPROVED → PAID at once;
the payments issue's payout adapter will call :func:`mark_withdrawal_paid` /
:func:`mark_withdrawal_failed` on an APPROVED withdrawal instead. Every decision locks the
withdrawal row first and checks the transition before any money moves, so deciding twice
(two operators, a retried command) is refused and never moves money twice; the ledger hold,
which resolves exactly once, is the second guard.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import BadRequest, CurrencyNotOffered
from pao.core.inserts import insert_now
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.events import WithdrawalChanged, WithdrawalPaid, WithdrawalRequested, publish
from pao.kit.money import Currency
from pao.kit.states import IllegalTransition, transition
from pao.ledger.models import AccountKind
from pao.ledger.service import (
    get_or_open_account,
    hold_from_wallet,
    post_hold,
    void_hold,
)
from pao.site.settings import SiteSettings, load_site_settings
from pao.wallet import withdrawal_function
from pao.wallet.claims import Claimant, check_claimant, claim_active
from pao.wallet.exceptions import (
    AmountNotPositive,
    NoBankAccount,
    WithdrawAboveMaximum,
    WithdrawalStatusConflict,
    WithdrawBelowMinimum,
)
from pao.wallet.models import StatementStatus, StatementType, Withdrawal, WithdrawalStatus
from pao.wallet.ports import WITHDRAWAL_GATE
from pao.wallet.rows import lock_withdrawal as lock_withdrawal  # callers lock through here
from pao.wallet.statement_notes import NoteCode, note
from pao.wallet.statements import WALLET_LABEL, record_statement, set_statement_status

WITHDRAWAL_TRANSITIONS: dict[WithdrawalStatus, frozenset[WithdrawalStatus]] = {
    WithdrawalStatus.PENDING: frozenset({WithdrawalStatus.APPROVED, WithdrawalStatus.REJECTED}),
    WithdrawalStatus.APPROVED: frozenset({WithdrawalStatus.PAID, WithdrawalStatus.FAILED}),
    WithdrawalStatus.PAID: frozenset(),
    WithdrawalStatus.REJECTED: frozenset(),
    WithdrawalStatus.FAILED: frozenset(),
}

# The statement line of a withdrawal is ("withdrawal", withdrawal id).
STATEMENT_REF = "withdrawal"
HOLD_PURPOSE = withdrawal_function.HOLD_PURPOSE
# A withdrawal request's idempotency operation (/withdraw and /withdrawAll are one intent) and
# the owner of its keys (OWNER_PREFIX + the member's id, also the hold's actor); the hold's
# memo is MEMO_PREFIX + the bank account.
OPERATION = "wallet.withdraw"
OWNER_PREFIX = "member:"
MEMO_PREFIX = "withdrawal to "


def key_owner(member_id: int) -> str:
    return f"{OWNER_PREFIX}{member_id}"


def withdraw_limits(settings: SiteSettings, currency: Currency) -> tuple[int | None, int | None]:
    """(smallest, largest) withdrawal of a ``currency`` wallet, minor units; ``None`` when the
    operator set none for that currency (withdrawals are then not offered in it)."""
    return (
        settings.withdraw_min.for_currency(currency),
        settings.withdraw_max.for_currency(currency),
    )


async def request_withdrawal(session: AsyncSession, *, member: Member, amount: int) -> Withdrawal:
    """Validate ``amount`` (minor units) and hold it out of the member's wallet."""
    if amount <= 0:
        raise AmountNotPositive()
    # The limits of the member's own currency (kip limits for a kip wallet; ADR 0020).
    currency = Currency(member.currency)
    minimum, maximum = withdraw_limits(await load_site_settings(session), currency)
    if minimum is None or maximum is None:
        raise CurrencyNotOffered()
    if amount < minimum:
        raise WithdrawBelowMinimum()
    if amount > maximum:
        raise WithdrawAboveMaximum()
    if not member.bank_code or not member.bank_account_no:
        raise NoBankAccount()
    # The BONUS_REMAINING gate belongs to promotions (plugged into the wallet's port); it runs
    # before the hold is placed.
    await WITHDRAWAL_GATE.impl.check(session, member_id=member.id)
    actor = key_owner(member.id)
    memo = f"{MEMO_PREFIX}{member.bank_code} {member.bank_account_no}"
    withdrawal: Withdrawal | None = None
    if withdrawal_function.on_postgres(session):
        withdrawal = await withdrawal_function.place(
            session,
            member=member,
            amount=amount,
            currency=currency,
            actor=actor,
            memo=memo,
            from_label=WALLET_LABEL,
            ref_type=STATEMENT_REF,
            now=utcnow(),
        )
    if withdrawal is None:  # SQLite, or the member's first withdrawal (accounts to open)
        withdrawal = await _place_in_steps(
            session, member=member, amount=amount, currency=currency, actor=actor, memo=memo
        )
    await publish(
        session,
        WithdrawalRequested(
            withdrawal_id=withdrawal.id, member_id=member.id, amount=amount, currency=currency
        ),
    )
    return withdrawal


async def _place_in_steps(
    session: AsyncSession,
    *,
    member: Member,
    amount: int,
    currency: Currency,
    actor: str,
    memo: str,
) -> Withdrawal:
    """The hold, the withdrawal and its statement line, one statement each (what
    ``pao_request_withdrawal`` does in one on PostgreSQL; the accounts opened if missing)."""
    hold = await hold_from_wallet(
        session,
        member_id=member.id,
        currency=currency,
        amount=amount,
        purpose=HOLD_PURPOSE,
        actor=actor,
        memo=memo,
    )
    withdrawal = await insert_now(
        session,
        Withdrawal(
            member_id=member.id,
            amount=amount,
            currency=currency,
            status=WithdrawalStatus.PENDING,
            hold_id=hold.id,
            bank_code=member.bank_code,
            bank_account_name=member.bank_account_name,
            bank_account_no=member.bank_account_no,
        ),
    )
    await record_statement(
        session,
        member_id=member.id,
        statement_type=StatementType.WITHDRAW,
        status=StatementStatus.PENDING,
        amount=amount,
        currency=currency,
        from_label=WALLET_LABEL,
        to_label=member.bank_code,
        ref_type=STATEMENT_REF,
        ref_id=withdrawal.id,
    )
    return withdrawal


async def _move(
    session: AsyncSession,
    withdrawal: Withdrawal,
    new: WithdrawalStatus,
    *,
    actor: str,
    reason: str | None,
) -> None:
    try:
        await transition(
            session, withdrawal, new, WITHDRAWAL_TRANSITIONS, actor=actor, reason=reason
        )
    except IllegalTransition:
        raise WithdrawalStatusConflict(
            withdrawal_id=withdrawal.id, status=str(withdrawal.status), wanted=str(new)
        ) from None
    await publish(
        session,
        WithdrawalChanged(
            withdrawal_id=withdrawal.id,
            status=str(new),
            claimed_by=withdrawal.claimed_by if claim_active(withdrawal) else None,
        ),
    )


async def _pay(session: AsyncSession, withdrawal: Withdrawal, *, actor: str, memo: str) -> None:
    await _move(session, withdrawal, WithdrawalStatus.PAID, actor=actor, reason=memo)
    payout = await get_or_open_account(
        session,
        kind=AccountKind.PAYOUT_CLEARING,
        currency=Currency(withdrawal.currency),
        member_id=withdrawal.member_id,
    )
    await post_hold(session, hold_id=withdrawal.hold_id, destination=payout, actor=actor, memo=memo)
    await set_statement_status(
        session,
        ref_type=STATEMENT_REF,
        ref_id=withdrawal.id,
        status=StatementStatus.SUCCESS,
        actor=actor,
    )
    await publish(
        session,
        WithdrawalPaid(
            member_id=withdrawal.member_id,
            amount=withdrawal.amount,
            currency=Currency(withdrawal.currency),
            withdrawal_id=withdrawal.id,
        ),
    )


async def _refund(
    session: AsyncSession,
    withdrawal: Withdrawal,
    new: WithdrawalStatus,
    *,
    actor: str,
    reason: str,
) -> None:
    await _move(session, withdrawal, new, actor=actor, reason=reason)
    withdrawal.reason = reason
    await void_hold(
        session,
        hold_id=withdrawal.hold_id,
        actor=actor,
        memo=f"withdrawal {withdrawal.id} {new.lower()}: {reason}"[:500],
    )
    rejected = new is WithdrawalStatus.REJECTED
    code = NoteCode.WITHDRAW_REJECTED if rejected else NoteCode.WITHDRAW_FAILED
    await set_statement_status(
        session,
        ref_type=STATEMENT_REF,
        ref_id=withdrawal.id,
        status=StatementStatus.FAILED,
        actor=actor,
        extra={"withdraw": note(code, reason=reason)},
    )


def _required_reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise BadRequest("KEY_MISSING", field="reason")
    return reason[:500]


async def approve_withdrawal(
    session: AsyncSession,
    *,
    withdrawal_id: int,
    actor: str,
    note: str | None = None,
    claimant: Claimant | None = None,
) -> Withdrawal:
    """PENDING → APPROVED → PAID: the operator paid it by hand; the hold is posted to payout
    clearing and the statement line becomes SUCCESS. ``claimant``: the cashier deciding, who
    must hold the claim (``None``: ``pao ops`` at the shell, which bypasses claims)."""
    withdrawal = await lock_withdrawal(session, withdrawal_id)
    check_claimant(withdrawal, claimant)
    memo = note.strip() if note and note.strip() else "paid manually by the operator"
    await _move(session, withdrawal, WithdrawalStatus.APPROVED, actor=actor, reason=memo)
    withdrawal.decided_at = utcnow()
    withdrawal.decided_by = actor
    await _pay(session, withdrawal, actor=actor, memo=memo[:500])
    await session.flush()
    return withdrawal


async def approve_for_payout(
    session: AsyncSession,
    *,
    withdrawal_id: int,
    actor: str,
    note: str | None = None,
    claimant: Claimant | None = None,
) -> Withdrawal:
    """PENDING → APPROVED only: the payout adapter (pao.payments.payouts) pays it next and
    calls :func:`mark_withdrawal_paid` / :func:`mark_withdrawal_failed` on the outcome.
    ``claimant`` as for :func:`approve_withdrawal`."""
    withdrawal = await lock_withdrawal(session, withdrawal_id)
    check_claimant(withdrawal, claimant)
    memo = note.strip() if note and note.strip() else "approved for payout"
    await _move(session, withdrawal, WithdrawalStatus.APPROVED, actor=actor, reason=memo[:500])
    withdrawal.decided_at = utcnow()
    withdrawal.decided_by = actor
    await session.flush()
    return withdrawal


async def reject_withdrawal(
    session: AsyncSession,
    *,
    withdrawal_id: int,
    actor: str,
    reason: str,
    claimant: Claimant | None = None,
) -> Withdrawal:
    """PENDING → REJECTED: the hold is voided (money back) and the line becomes FAILED.
    ``claimant`` as for :func:`approve_withdrawal`."""
    reason = _required_reason(reason)
    withdrawal = await lock_withdrawal(session, withdrawal_id)
    check_claimant(withdrawal, claimant)
    await _refund(session, withdrawal, WithdrawalStatus.REJECTED, actor=actor, reason=reason)
    withdrawal.decided_at = utcnow()
    withdrawal.decided_by = actor
    await session.flush()
    return withdrawal


async def mark_withdrawal_paid(
    session: AsyncSession, *, withdrawal_id: int, actor: str, memo: str = "payout confirmed"
) -> Withdrawal:
    """APPROVED → PAID, for a payout confirmed after approval (payments issue)."""
    withdrawal = await lock_withdrawal(session, withdrawal_id)
    await _pay(session, withdrawal, actor=actor, memo=memo[:500])
    await session.flush()
    return withdrawal


async def mark_withdrawal_failed(
    session: AsyncSession, *, withdrawal_id: int, actor: str, reason: str
) -> Withdrawal:
    """APPROVED → FAILED, for a payout that failed after approval: money back to the wallet."""
    reason = _required_reason(reason)
    withdrawal = await lock_withdrawal(session, withdrawal_id)
    await _refund(session, withdrawal, WithdrawalStatus.FAILED, actor=actor, reason=reason)
    await session.flush()
    return withdrawal


async def list_withdrawals(
    session: AsyncSession,
    *,
    status: WithdrawalStatus | None = None,
    member_id: int | None = None,
    limit: int = 100,
    offset: int = 0,
    newest_first: bool = False,
) -> list[Withdrawal]:
    """Oldest first by default: the order an operator works the queue in."""
    order = (
        (Withdrawal.created_at.desc(), Withdrawal.id.desc())
        if newest_first
        else (Withdrawal.created_at, Withdrawal.id)
    )
    query = select(Withdrawal).order_by(*order).offset(offset).limit(limit)
    if status is not None:
        query = query.where(Withdrawal.status == status)
    if member_id is not None:
        query = query.where(Withdrawal.member_id == member_id)
    return list((await session.execute(query)).scalars().all())


async def member_withdrawal_page(
    session: AsyncSession, *, member_id: int, offset: int, limit: int
) -> tuple[int, list[Withdrawal]]:
    """One page of a member's withdrawals, newest first, and how many there are in all (the
    operator's member page)."""
    total = await session.scalar(
        select(func.count()).select_from(Withdrawal).where(Withdrawal.member_id == member_id)
    )
    rows = await list_withdrawals(
        session, member_id=member_id, offset=offset, limit=limit, newest_first=True
    )
    return int(total or 0), rows
