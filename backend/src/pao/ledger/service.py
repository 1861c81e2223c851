"""Ledger operations. Every money movement in Pao is one of these calls.

* :func:`post_entry` writes one balanced journal entry and moves cached balances under row
  locks taken in ascending account id (one statement), so two movements can never deadlock.
  It is the hottest code in Pao: prebuilt Core statements, no ORM unit of work.
* :func:`credit_wallet` is a deposit's :func:`transfer` (operator account → a member's
  wallet) with both accounts found by their lock: one statement instead of three; on
  PostgreSQL the whole credit is one (``pao_credit_wallet``, ADR 0018).
* :func:`place_hold` / :func:`post_hold` / :func:`void_hold` are the two-phase movement for
  money that leaves for an unreliable party; a hold resolves exactly once.
* :func:`reverse_entry` is the only correction: entries are never updated or deleted.

Shared operator accounts (clearing, float, expense) are split into shard rows
(:data:`~pao.ledger.models.SHARDS`): a movement of a member uses the row
``member_id % SHARDS`` (``get_or_open_account(member_id=…)``), so members do not queue on
one row lock; :func:`account_balance` is the balance of an account over its rows.

The statements run through :mod:`pao.core.executor`: on PostgreSQL on the driver under the
session's transaction, on SQLite through SQLAlchemy (ADR 0014).

Services never commit; the caller's unit of work does.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, bindparam, func, insert, inspect, select, update
from sqlalchemy.exc import IntegrityError, NoResultFound
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from pao.core import executor
from pao.core.inserts import insert_now
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.kit.states import check_transition, transition_now
from pao.ledger import credit_function
from pao.ledger.exceptions import AlreadyReversed, InsufficientFunds, UnbalancedEntry
from pao.ledger.models import (
    HOLD_TRANSITIONS,
    AccountKind,
    Hold,
    HoldStatus,
    JournalEntry,
    LedgerAccount,
    Posting,
    shard_of,
)


@dataclass(frozen=True)
class Leg:
    account: LedgerAccount
    amount: int


_ACCOUNT = select(LedgerAccount).where(
    LedgerAccount.kind == bindparam("kind"),
    LedgerAccount.owner == bindparam("owner"),
    LedgerAccount.currency == bindparam("currency"),
    LedgerAccount.shard == bindparam("shard"),
)


async def _find_account(session: AsyncSession, params: dict[str, object]) -> LedgerAccount | None:
    row = await executor.fetch_one_or_none(session, _ACCOUNT, params)
    return None if row is None else executor.attach(session, LedgerAccount, row)


async def get_or_open_account(
    session: AsyncSession,
    *,
    kind: AccountKind,
    currency: Currency,
    owner: str = "",
    member_id: int | None = None,
) -> LedgerAccount:
    """The account row (opened on first use). For a shared operator account, the shard row
    of ``member_id`` (the member the movement is for); without one, shard 0."""
    params: dict[str, object] = {
        "kind": kind,
        "owner": owner,
        "currency": currency,
        "shard": shard_of(kind, member_id),
    }
    account = await _find_account(session, params)
    if account is not None:
        return account
    account = LedgerAccount(
        kind=kind,
        owner=owner,
        currency=currency,
        shard=params["shard"],
        balance=0,
        may_go_negative=kind.may_go_negative,
    )
    try:
        async with session.begin_nested():
            session.add(account)
            await session.flush()
    except IntegrityError:  # opened concurrently by another transaction
        found = await _find_account(session, params)
        assert found is not None
        return found
    return account


_BALANCE = select(func.coalesce(func.sum(LedgerAccount.balance), 0)).where(
    LedgerAccount.kind == bindparam("kind"),
    LedgerAccount.owner == bindparam("owner"),
    LedgerAccount.currency == bindparam("currency"),
)


async def account_balance(
    session: AsyncSession, *, kind: AccountKind, currency: Currency, owner: str = ""
) -> int:
    """The balance of one account over all its shard rows (what reports and checks read)."""
    params = {"kind": kind, "owner": owner, "currency": currency}
    return int((await session.execute(_BALANCE, params)).scalar_one())


async def player_wallet(
    session: AsyncSession, *, member_id: int, currency: Currency
) -> LedgerAccount:
    return await get_or_open_account(
        session, kind=AccountKind.PLAYER_WALLET, currency=currency, owner=str(member_id)
    )


_LOCK = (
    select(LedgerAccount.id, LedgerAccount.balance, LedgerAccount.may_go_negative)
    .where(LedgerAccount.id.in_(bindparam("ids", expanding=True)))
    .order_by(LedgerAccount.id)
    .with_for_update()
)
# The rows themselves, locked the same way (ascending id), for callers that need the objects.
_LOCK_ROWS = (
    select(LedgerAccount)
    .where(LedgerAccount.id.in_(bindparam("ids", expanding=True)))
    .order_by(LedgerAccount.id)
    .with_for_update()
)
# Table-level (Core) statements: the ORM's bulk paths would want whole rows by primary key.
_accounts = cast(Table, LedgerAccount.__table__)
_MOVE = (
    update(_accounts)
    .where(_accounts.c.id == bindparam("account_id"))
    .values(balance=_accounts.c.balance + bindparam("delta"))
)
_POST = insert(cast(Table, Posting.__table__))


async def _lock(session: AsyncSession, account_ids: Sequence[int]) -> dict[int, tuple[int, bool]]:
    """Lock rows in ascending id order; their current ``(balance, may_go_negative)``."""
    rows = await executor.fetch(session, _LOCK, {"ids": sorted(set(account_ids))})
    return {account_id: (balance, may_go_negative) for account_id, balance, may_go_negative in rows}


async def lock_accounts(session: AsyncSession, accounts: Sequence[LedgerAccount]) -> dict[int, int]:
    """Lock ``accounts`` (ascending id, as :func:`post_entry` does) before a movement whose
    legs depend on what the caller reads under the lock; their current balances by id."""
    locked = await _lock(session, [account.id for account in accounts])
    return {account_id: balance for account_id, (balance, _) in locked.items()}


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
    deltas = _deltas(legs)
    locked = await _lock(session, list(deltas))
    return await _write_entry(
        session, legs, deltas, locked, kind=kind, actor=actor, memo=memo, reverses_id=reverses_id
    )


def _deltas(legs: Sequence[Leg]) -> dict[int, int]:
    deltas: dict[int, int] = defaultdict(int)
    for leg in legs:
        deltas[leg.account.id] += leg.amount
    return deltas


async def _write_entry(
    session: AsyncSession,
    legs: Sequence[Leg],
    deltas: dict[int, int],
    locked: dict[int, tuple[int, bool]],
    *,
    kind: str,
    actor: str,
    memo: str,
    reverses_id: int | None = None,
) -> JournalEntry:
    """The entry, its postings and the new balances; the accounts are ``locked`` already."""
    for account_id, delta in deltas.items():
        balance, may_go_negative = locked[account_id]
        if not may_go_negative and balance + delta < 0:
            raise InsufficientFunds()
    entry = await insert_now(
        session, JournalEntry(kind=kind, actor=actor, memo=memo, reverses_id=reverses_id)
    )
    await executor.execute_many(
        session,
        _MOVE,
        [{"account_id": account_id, "delta": delta} for account_id, delta in deltas.items()],
    )
    await executor.execute_many(
        session,
        _POST,
        [
            {
                "entry_id": entry.id,
                "account_id": leg.account.id,
                "currency": leg.account.currency,
                "amount": leg.amount,
            }
            for leg in legs
        ],
    )
    # The callers' account objects show the new balances, as if reloaded.
    for leg in legs:
        set_committed_value(
            leg.account, "balance", locked[leg.account.id][0] + deltas[leg.account.id]
        )
    return entry


def show_new_balances(session: AsyncSession, balances: Sequence[tuple[int, int]]) -> None:
    """Account objects this session already holds show the new balances (account id,
    balance) that a statement sent outside them has written, as if reloaded, as
    :func:`_write_entry` leaves them (an async session cannot reload implicitly)."""
    mapper = inspect(LedgerAccount)
    for account_id, balance in balances:
        account = session.identity_map.get(mapper.identity_key_from_primary_key((account_id,)))
        if account is not None:
            set_committed_value(account, "balance", balance)


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
    accounts = {
        account.id: account
        for account in (
            await session.execute(
                select(LedgerAccount).where(LedgerAccount.id.in_({p.account_id for p in postings}))
            )
        ).scalars()
    }
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


# An operator account's shard row and a member's wallet, found and locked by what they are in
# one statement (ascending id, as every lock in the ledger): a deposit credit needs no separate
# look-up of either account first (two round trips less than find, find, lock).
_LOCK_SOURCE_AND_WALLET = (
    select(LedgerAccount)
    .where(
        (
            (LedgerAccount.kind == bindparam("source_kind"))
            & (LedgerAccount.owner == bindparam("source_owner"))
            & (LedgerAccount.shard == bindparam("shard"))
        )
        | (
            (LedgerAccount.kind == AccountKind.PLAYER_WALLET.value)
            & (LedgerAccount.owner == bindparam("wallet_owner"))
            & (LedgerAccount.shard == 0)
        ),
        LedgerAccount.currency == bindparam("currency"),
    )
    .order_by(LedgerAccount.id)
    .with_for_update()
)


async def lock_wallet_with(
    session: AsyncSession,
    *,
    kind: AccountKind,
    owner: str,
    member_id: int,
    currency: Currency,
) -> tuple[LedgerAccount, LedgerAccount] | None:
    """The member's wallet and the shard row of the operator account (``kind``, ``owner``) that
    the member's movements use, found and locked by one statement (ascending id), their objects
    showing the balances read under the lock; None when either is not opened yet. For a caller
    that decides under the lock and then moves money between them (:func:`transfer_locked`):
    one round trip where finding each and locking both takes three."""
    params = {
        "source_kind": kind,
        "source_owner": owner,
        "shard": shard_of(kind, member_id),
        "wallet_owner": str(member_id),
        "currency": currency,
    }
    rows = await executor.fetch(session, _LOCK_SOURCE_AND_WALLET, params)
    accounts = [executor.attach(session, LedgerAccount, row) for row in rows]
    wallet = next((a for a in accounts if a.kind == AccountKind.PLAYER_WALLET), None)
    other = next((a for a in accounts if a.kind != AccountKind.PLAYER_WALLET), None)
    return None if wallet is None or other is None else (wallet, other)


async def transfer_locked(
    session: AsyncSession,
    *,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    kind: str,
    actor: str,
    memo: str = "",
) -> JournalEntry:
    """:func:`transfer` between two accounts this transaction has locked already and whose
    objects show the balances read under that lock (:func:`lock_wallet_with`): the same entry,
    checks and postings, without locking the rows a second time."""
    if amount <= 0:
        raise UnbalancedEntry("a transfer moves a positive amount")
    legs = [Leg(source, -amount), Leg(destination, amount)]
    return await _write_entry(
        session,
        legs,
        _deltas(legs),
        {a.id: (a.balance, a.may_go_negative) for a in (source, destination)},
        kind=kind,
        actor=actor,
        memo=memo,
    )


async def credit_wallet(
    session: AsyncSession,
    *,
    source_kind: AccountKind,
    member_id: int,
    currency: Currency,
    amount: int,
    kind: str,
    actor: str,
    memo: str = "",
    source_owner: str = "",
) -> JournalEntry:
    """:func:`transfer` of ``amount`` (> 0) from an operator account (``source_kind``,
    ``source_owner``; the shard row of ``member_id``) into the member's wallet, both rows
    found and locked by one statement. On PostgreSQL the whole credit is one statement
    (:mod:`pao.ledger.credit_function`, ADR 0018). A first movement of either account opens
    it, as :func:`get_or_open_account` does, and then takes the ordinary path."""
    if amount <= 0:
        raise UnbalancedEntry("a transfer moves a positive amount")
    if executor.on_postgres(session):
        credited = await credit_function.credit(
            session,
            source_kind=source_kind,
            source_owner=source_owner,
            member_id=member_id,
            currency=currency,
            amount=amount,
            kind=kind,
            actor=actor,
            memo=memo,
            now=utcnow(),
        )
        if credited is not None:
            entry, balances = credited
            show_new_balances(session, balances)
            return entry
    # SQLite, or a first movement of either account (to open).
    return await _credit_in_steps(
        session,
        source_kind=source_kind,
        source_owner=source_owner,
        member_id=member_id,
        currency=currency,
        amount=amount,
        kind=kind,
        actor=actor,
        memo=memo,
    )


async def _credit_in_steps(
    session: AsyncSession,
    *,
    source_kind: AccountKind,
    source_owner: str,
    member_id: int,
    currency: Currency,
    amount: int,
    kind: str,
    actor: str,
    memo: str,
) -> JournalEntry:
    """:func:`credit_wallet` one statement at a time (what ``pao_credit_wallet`` does in one
    on PostgreSQL): the lock, then the entry, the balances and the postings."""
    found = await lock_wallet_with(
        session, kind=source_kind, owner=source_owner, member_id=member_id, currency=currency
    )
    if found is None:  # a first movement: open what is missing
        source = await get_or_open_account(
            session,
            kind=source_kind,
            currency=currency,
            owner=source_owner,
            member_id=member_id,
        )
        wallet = await player_wallet(session, member_id=member_id, currency=currency)
        return await transfer(
            session,
            source=source,
            destination=wallet,
            amount=amount,
            kind=kind,
            actor=actor,
            memo=memo,
        )
    wallet, source = found
    return await transfer_locked(
        session,
        source=source,
        destination=wallet,
        amount=amount,
        kind=kind,
        actor=actor,
        memo=memo,
    )


# The player's account and its suspense account for a purpose, locked in one statement.
_LOCK_WITH_SUSPENSE = (
    select(LedgerAccount)
    .where(
        (LedgerAccount.id == bindparam("account_id"))
        | (
            (LedgerAccount.kind == bindparam("kind"))
            & (LedgerAccount.owner == bindparam("owner"))
            & (LedgerAccount.currency == bindparam("currency"))
        )
    )
    .order_by(LedgerAccount.id)
    .with_for_update()
)


async def _lock_with_suspense(
    session: AsyncSession, purpose: str, account: LedgerAccount
) -> LedgerAccount:
    """Lock ``account`` and its suspense account (ascending id, one statement, opening the
    suspense account on first use); return the suspense account.

    Each player account has its own suspense account, not one for everybody: every hold
    locks and updates its suspense row, and a shared row would make all players' withdrawals
    (or game transfers) wait for each other (docs/benchmarks.md)."""
    kind = _suspense_kind(purpose)
    params = {
        "account_id": account.id,
        "kind": kind,
        "owner": account.owner,
        "currency": account.currency,
    }
    rows = await executor.fetch(session, _LOCK_WITH_SUSPENSE, params)
    locked = [executor.attach(session, LedgerAccount, row) for row in rows]
    suspense = next((a for a in locked if a.id != account.id), None)
    if suspense is None:
        suspense = await get_or_open_account(
            session, kind=kind, currency=Currency(account.currency), owner=account.owner
        )
        for row in await executor.fetch(session, _LOCK_WITH_SUSPENSE, params):
            executor.attach(session, LedgerAccount, row)
    return suspense


def _suspense_kind(purpose: str) -> AccountKind:
    return (
        AccountKind.WITHDRAWALS_PENDING
        if purpose == "withdrawal"
        else AccountKind.GAME_TRANSFERS_PENDING
    )


# A member's wallet and suspense account found and locked by owner, in one statement: a hold
# from the wallet needs no separate look-up of the wallet first (one round trip less).
_LOCK_MEMBER_ACCOUNTS = (
    select(LedgerAccount)
    .where(
        (
            (LedgerAccount.kind == AccountKind.PLAYER_WALLET.value)
            | (LedgerAccount.kind == bindparam("kind"))
        )
        & (LedgerAccount.owner == bindparam("owner"))
        & (LedgerAccount.currency == bindparam("currency"))
    )
    .order_by(LedgerAccount.id)
    .with_for_update()
)


async def hold_from_wallet(
    session: AsyncSession,
    *,
    member_id: int,
    currency: Currency,
    amount: int,
    purpose: str,
    actor: str,
    memo: str = "",
) -> Hold:
    """:func:`place_hold` from the member's wallet, the wallet found by the lock itself."""
    if amount <= 0:
        raise UnbalancedEntry("a hold moves a positive amount")
    params = {"kind": _suspense_kind(purpose), "owner": str(member_id), "currency": currency}
    rows = await executor.fetch(session, _LOCK_MEMBER_ACCOUNTS, params)
    accounts = [executor.attach(session, LedgerAccount, row) for row in rows]
    wallet = next((a for a in accounts if a.kind == AccountKind.PLAYER_WALLET), None)
    suspense = next((a for a in accounts if a.kind != AccountKind.PLAYER_WALLET), None)
    if wallet is None or suspense is None:  # the first hold: open what is missing
        wallet = await player_wallet(session, member_id=member_id, currency=currency)
        return await place_hold(
            session, account=wallet, amount=amount, purpose=purpose, actor=actor, memo=memo
        )
    return await _hold(session, wallet, suspense, amount, purpose, actor=actor, memo=memo)


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
    if amount <= 0:
        raise UnbalancedEntry("a hold moves a positive amount")
    suspense = await _lock_with_suspense(session, purpose, account)
    return await _hold(session, account, suspense, amount, purpose, actor=actor, memo=memo)


async def _hold(
    session: AsyncSession,
    account: LedgerAccount,
    suspense: LedgerAccount,
    amount: int,
    purpose: str,
    *,
    actor: str,
    memo: str,
) -> Hold:
    """The hold's entry and row; ``account`` and ``suspense`` are locked already."""
    legs = [Leg(account, -amount), Leg(suspense, amount)]
    entry = await _write_entry(
        session,
        legs,
        _deltas(legs),
        {a.id: (a.balance, a.may_go_negative) for a in (account, suspense)},
        kind=f"hold:{purpose}",
        actor=actor,
        memo=memo,
    )
    return await insert_now(
        session,
        Hold(
            account_id=account.id,
            suspense_id=suspense.id,
            currency=account.currency,
            amount=amount,
            status=HoldStatus.PENDING,
            purpose=purpose,
            hold_entry_id=entry.id,
        ),
    )


_LOCK_HOLD = select(Hold).where(Hold.id == bindparam("hold_id")).with_for_update()


async def lock_hold(session: AsyncSession, hold_id: int) -> Hold:
    rows = await executor.fetch(session, _LOCK_HOLD, {"hold_id": hold_id})
    if not rows:
        raise NoResultFound(f"no hold {hold_id}")
    return executor.attach(session, Hold, rows[0])


async def post_hold(
    session: AsyncSession, *, hold_id: int, destination: LedgerAccount, actor: str, memo: str = ""
) -> Hold:
    """Phase two, success: the held money goes to ``destination``."""
    hold = await lock_hold(session, hold_id)
    check_transition(HOLD_TRANSITIONS, HoldStatus(hold.status), HoldStatus.POSTED)
    return await _resolve(
        session, hold, destination.id, HoldStatus.POSTED, actor=actor, memo=memo, kind="post"
    )


async def void_hold(session: AsyncSession, *, hold_id: int, actor: str, memo: str = "") -> Hold:
    """Phase two, failure: the held money goes back to the player."""
    hold = await lock_hold(session, hold_id)
    check_transition(HOLD_TRANSITIONS, HoldStatus(hold.status), HoldStatus.VOIDED)
    return await _resolve(
        session, hold, hold.account_id, HoldStatus.VOIDED, actor=actor, memo=memo, kind="void"
    )


async def _resolve(
    session: AsyncSession,
    hold: Hold,
    destination_id: int,
    status: HoldStatus,
    *,
    actor: str,
    memo: str,
    kind: str,
) -> Hold:
    # The hold is locked (lock_hold) and its move checked. Lock its origin too, with the
    # accounts the entry moves, in one ascending-id statement: a concurrent place_hold of the
    # same player locks the same rows in the same order, so neither waits on the other in a
    # cycle. The same statement loads the accounts (one round trip: no second lock in
    # post_entry, no separate look-up of the suspense account).
    ids = sorted({hold.account_id, hold.suspense_id, destination_id})
    rows = await executor.fetch(session, _LOCK_ROWS, {"ids": ids})
    accounts = {a.id: a for a in (executor.attach(session, LedgerAccount, row) for row in rows)}
    suspense = accounts[hold.suspense_id]
    legs = [Leg(suspense, -hold.amount), Leg(accounts[destination_id], hold.amount)]
    _check_balanced(legs)
    entry = await _write_entry(
        session,
        legs,
        _deltas(legs),
        {a.id: (a.balance, a.may_go_negative) for a in accounts.values()},
        kind=f"{kind}:{hold.purpose}",
        actor=actor,
        memo=memo,
    )
    # The hold's row is written once, after the entry: its status, the entry that resolved
    # it and when (one UPDATE; its foreign keys to the accounts do not change, so PostgreSQL
    # takes no key-share lock on them for it).
    await transition_now(
        session,
        hold,
        status,
        HOLD_TRANSITIONS,
        actor=actor,
        reason=memo,
        also={"resolve_entry_id": entry.id, "resolved_at": utcnow()},
    )
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
