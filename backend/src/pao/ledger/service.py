"""Ledger operations. Every money movement in Pao is one of these calls.

* :func:`post_entry` writes one balanced journal entry and moves cached balances under row
  locks taken in ascending account id (one statement), so two movements can never deadlock.
* :func:`place_hold` / :func:`post_hold` / :func:`void_hold` are the two-phase movement for
  money that leaves for an unreliable party; a hold resolves exactly once.
* :func:`reverse_entry` is the only correction: entries are never updated or deleted.

Services never commit; the caller's unit of work does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.kit.states import transition
from pao.ledger.exceptions import AlreadyReversed, InsufficientFunds, UnbalancedEntry
from pao.ledger.models import (
    HOLD_TRANSITIONS,
    AccountKind,
    Hold,
    HoldStatus,
    JournalEntry,
    LedgerAccount,
    Posting,
)


@dataclass(frozen=True)
class Leg:
    account: LedgerAccount
    amount: int


async def get_or_open_account(
    session: AsyncSession, *, kind: AccountKind, currency: Currency, owner: str = ""
) -> LedgerAccount:
    query = select(LedgerAccount).where(
        LedgerAccount.kind == kind,
        LedgerAccount.owner == owner,
        LedgerAccount.currency == currency,
    )
    account = (await session.execute(query)).scalar_one_or_none()
    if account is not None:
        return account
    account = LedgerAccount(
        kind=kind,
        owner=owner,
        currency=currency,
        balance=0,
        may_go_negative=kind.may_go_negative,
    )
    try:
        async with session.begin_nested():
            session.add(account)
            await session.flush()
    except IntegrityError:  # opened concurrently by another transaction
        return (await session.execute(query)).scalar_one()
    return account


async def player_wallet(
    session: AsyncSession, *, member_id: int, currency: Currency
) -> LedgerAccount:
    return await get_or_open_account(
        session, kind=AccountKind.PLAYER_WALLET, currency=currency, owner=str(member_id)
    )


async def _lock(session: AsyncSession, account_ids: Sequence[int]) -> dict[int, LedgerAccount]:
    """Lock rows in ascending id order and reload their balances."""
    query = (
        select(LedgerAccount)
        .where(LedgerAccount.id.in_(sorted(set(account_ids))))
        .order_by(LedgerAccount.id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {a.id: a for a in (await session.execute(query)).scalars()}


def _check_balanced(legs: Sequence[Leg]) -> None:
    if not legs:
        raise UnbalancedEntry("an entry needs postings")
    totals: dict[Currency, int] = defaultdict(int)
    for leg in legs:
        if leg.amount == 0:
            raise UnbalancedEntry("zero posting")
        totals[Currency(leg.account.currency)] += leg.amount
    if any(totals.values()):
        raise UnbalancedEntry(f"postings do not sum to zero: {dict(totals)}")


async def post_entry(
    session: AsyncSession,
    *,
    kind: str,
    legs: Sequence[Leg],
    actor: str,
    memo: str = "",
    reverses_id: int | None = None,
) -> JournalEntry:
    _check_balanced(legs)
    locked = await _lock(session, [leg.account.id for leg in legs])
    deltas: dict[int, int] = defaultdict(int)
    for leg in legs:
        deltas[leg.account.id] += leg.amount
    for account_id, delta in deltas.items():
        account = locked[account_id]
        if not account.may_go_negative and account.balance + delta < 0:
            raise InsufficientFunds()
    entry = JournalEntry(kind=kind, actor=actor, memo=memo, reverses_id=reverses_id)
    session.add(entry)
    await session.flush()
    for account_id, delta in deltas.items():
        locked[account_id].balance += delta
    session.add_all(
        Posting(
            entry_id=entry.id,
            account_id=leg.account.id,
            currency=leg.account.currency,
            amount=leg.amount,
        )
        for leg in legs
    )
    await session.flush()
    return entry


async def transfer(
    session: AsyncSession,
    *,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    kind: str,
    actor: str,
    memo: str = "",
) -> JournalEntry:
    """Move ``amount`` (> 0) from ``source`` to ``destination``."""
    if amount <= 0:
        raise UnbalancedEntry("a transfer moves a positive amount")
    return await post_entry(
        session,
        kind=kind,
        actor=actor,
        memo=memo,
        legs=[Leg(source, -amount), Leg(destination, amount)],
    )


async def reverse_entry(
    session: AsyncSession, *, entry_id: int, actor: str, memo: str
) -> JournalEntry:
    already = await session.execute(
        select(JournalEntry.id).where(JournalEntry.reverses_id == entry_id)
    )
    if already.first() is not None:
        raise AlreadyReversed(entry_id)
    postings = (
        (await session.execute(select(Posting).where(Posting.entry_id == entry_id))).scalars().all()
    )
    accounts = await _lock(session, [p.account_id for p in postings])
    original = await session.get(JournalEntry, entry_id)
    kind = f"reversal:{original.kind}" if original else "reversal"
    return await post_entry(
        session,
        kind=kind[:40],
        actor=actor,
        memo=memo,
        reverses_id=entry_id,
        legs=[Leg(accounts[p.account_id], -p.amount) for p in postings],
    )


async def _suspense_for(session: AsyncSession, purpose: str, currency: Currency) -> LedgerAccount:
    kind = (
        AccountKind.WITHDRAWALS_PENDING
        if purpose == "withdrawal"
        else AccountKind.GAME_TRANSFERS_PENDING
    )
    return await get_or_open_account(session, kind=kind, currency=currency)


async def place_hold(
    session: AsyncSession,
    *,
    account: LedgerAccount,
    amount: int,
    purpose: str,
    actor: str,
    memo: str = "",
) -> Hold:
    """Phase one: take ``amount`` out of ``account`` into suspense (MONEY_NOT_ENOUGH if short)."""
    suspense = await _suspense_for(session, purpose, Currency(account.currency))
    entry = await transfer(
        session,
        source=account,
        destination=suspense,
        amount=amount,
        kind=f"hold:{purpose}",
        actor=actor,
        memo=memo,
    )
    hold = Hold(
        account_id=account.id,
        suspense_id=suspense.id,
        currency=account.currency,
        amount=amount,
        status=HoldStatus.PENDING,
        purpose=purpose,
        hold_entry_id=entry.id,
    )
    session.add(hold)
    await session.flush()
    return hold


async def lock_hold(session: AsyncSession, hold_id: int) -> Hold:
    query = (
        select(Hold)
        .where(Hold.id == hold_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return (await session.execute(query)).scalar_one()


async def post_hold(
    session: AsyncSession, *, hold_id: int, destination: LedgerAccount, actor: str, memo: str = ""
) -> Hold:
    """Phase two, success: the held money goes to ``destination``."""
    hold = await lock_hold(session, hold_id)
    await transition(session, hold, HoldStatus.POSTED, HOLD_TRANSITIONS, actor=actor, reason=memo)
    return await _resolve(session, hold, destination, actor=actor, memo=memo, kind="post")


async def void_hold(session: AsyncSession, *, hold_id: int, actor: str, memo: str = "") -> Hold:
    """Phase two, failure: the held money goes back to the player."""
    hold = await lock_hold(session, hold_id)
    await transition(session, hold, HoldStatus.VOIDED, HOLD_TRANSITIONS, actor=actor, reason=memo)
    origin = await session.get(LedgerAccount, hold.account_id)
    assert origin is not None
    return await _resolve(session, hold, origin, actor=actor, memo=memo, kind="void")


async def _resolve(
    session: AsyncSession,
    hold: Hold,
    destination: LedgerAccount,
    *,
    actor: str,
    memo: str,
    kind: str,
) -> Hold:
    # Lock the hold's origin too, with the accounts the entry moves, in one ascending-id
    # statement. Updating the hold row a second time in this transaction makes PostgreSQL
    # re-check its foreign keys (KEY SHARE on the origin account); without this lock that
    # check would wait on a concurrent place_hold of the same player, which waits on the
    # suspense account this transaction holds: a deadlock.
    await _lock(session, [hold.account_id, hold.suspense_id, destination.id])
    suspense = await session.get(LedgerAccount, hold.suspense_id)
    assert suspense is not None
    entry = await transfer(
        session,
        source=suspense,
        destination=destination,
        amount=hold.amount,
        kind=f"{kind}:{hold.purpose}",
        actor=actor,
        memo=memo,
    )
    hold.resolve_entry_id = entry.id
    hold.resolved_at = utcnow()
    await session.flush()
    return hold


@dataclass(frozen=True)
class BooksReport:
    """What an auditor checks: every currency sums to zero, caches match the postings."""

    totals: dict[str, int]
    mismatched_accounts: list[int]
    negative_player_accounts: list[int]

    @property
    def balanced(self) -> bool:
        return (
            not any(self.totals.values())
            and not self.mismatched_accounts
            and not self.negative_player_accounts
        )


async def check_books(session: AsyncSession) -> BooksReport:
    totals = {
        str(currency): int(total)
        for currency, total in await session.execute(
            select(Posting.currency, func.sum(Posting.amount)).group_by(Posting.currency)
        )
    }
    sums = {
        account_id: int(total)
        for account_id, total in await session.execute(
            select(Posting.account_id, func.sum(Posting.amount)).group_by(Posting.account_id)
        )
    }
    mismatched, negative = [], []
    for account in (await session.execute(select(LedgerAccount))).scalars():
        if sums.get(account.id, 0) != account.balance:
            mismatched.append(account.id)
        if not account.may_go_negative and account.balance < 0:
            negative.append(account.id)
    return BooksReport(totals, mismatched, negative)
