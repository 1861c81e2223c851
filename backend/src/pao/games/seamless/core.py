"""The seamless wallet's money rules, the same for every aggregator's dialect.

* Every call first locks the member's wallet and that provider's clearing row (ascending id, as
  every ledger movement does), so one member's calls run one at a time whatever the provider
  sends at once, and a bet can never take the wallet below zero.
* One ledger entry per provider transaction id, exactly once: the id is looked up under that
  lock; a replay with the same data answers OK with the balance as it stands, the same id with
  different data is refused (``DUPLICATE``). The unique ``(provider, txn_id)`` index catches
  two members' calls racing on one id; the caller retries the call once (:func:`run`).
* A bet moves wallet → ``SEAMLESS_CLEARING[provider]`` (sharded like the floats, ADR 0014), a
  win the reverse; a rollback gives a bet's stake back once. A rollback that arrives before
  its bet is stored as a remembered refusal: the late bet is refused and no money moves.
* Wins and rollbacks never check the member's status or session: they settle money the player
  already won or never lost. Bets are refused for a member who may not play.

Outcomes are data (:class:`Outcome`), not exceptions: a dialect maps each status to its own
code and still answers the balance.

The dialects call :func:`play`. On PostgreSQL it runs the call as one statement
(:mod:`pao.games.seamless.function`, ADR 0033) and takes :func:`bet`, :func:`win` and
:func:`rollback` below, the steps, only where the function leaves a call to them; SQLite always
takes the steps. ``tests/api/test_seamless_function.py`` holds the two to the same rows.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace

from sqlalchemy import Insert, Select, Table, and_, bindparam, func, or_, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from pao.core import executor
from pao.core.inserts import insert_now, update_now
from pao.games.seamless import function

# The core's vocabulary, named here too: the dialects speak to the core (core.Move, core.Status).
from pao.games.seamless.calls import Move as Move
from pao.games.seamless.calls import Outcome as Outcome
from pao.games.seamless.calls import Status as Status
from pao.games.seamless.models import SeamlessRound, SeamlessTransaction, TxnKind
from pao.identity.models import Member, MemberStatus
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger import service as ledger
from pao.ledger.models import AccountKind, LedgerAccount
from pao.protection import hits
from pao.protection.models import HitKind
from pao.protection.service import is_excluded, loss_limit_reached
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL, record_statement


@dataclass
class _Locked:
    member: Member
    wallet: LedgerAccount
    clearing: LedgerAccount
    balance: int

    def outcome(self, status: Status, balance: int | None = None) -> Outcome:
        after = self.balance if balance is None else balance
        return Outcome(status, self.member.currency, after, self.balance)


_TXN = select(SeamlessTransaction).where(
    SeamlessTransaction.provider == bindparam("provider"),
    SeamlessTransaction.txn_id == bindparam("txn_id"),
)
# A callback's look-ups, one statement each (a spin is a bet and a win: ADR 0033): a bet's own
# id and a rollback that came before it; a win's or rollback's own id and the bet it names.
_BET_OR_ITS_ROLLBACK = select(SeamlessTransaction).where(
    SeamlessTransaction.provider == bindparam("provider"),
    or_(
        SeamlessTransaction.txn_id == bindparam("txn_id"),
        and_(
            SeamlessTransaction.reference_id == bindparam("reference_id"),
            SeamlessTransaction.kind == TxnKind.ROLLBACK,
        ),
    ),
)
_TXN_AND_ITS_BET = select(SeamlessTransaction).where(
    SeamlessTransaction.provider == bindparam("provider"),
    or_(
        SeamlessTransaction.txn_id == bindparam("txn_id"),
        SeamlessTransaction.txn_id == bindparam("bet_id"),
    ),
)
_ROUND = select(SeamlessRound).where(
    SeamlessRound.provider == bindparam("provider"),
    SeamlessRound.round_id == bindparam("round_id"),
)
_ROUNDS: Table = SeamlessRound.__table__  # type: ignore[assignment]


async def _rows(
    session: AsyncSession,
    statement: Select[SeamlessTransaction],
    params: Mapping[str, str | None],
) -> list[SeamlessTransaction]:
    return [
        executor.attach(session, SeamlessTransaction, row)
        for row in await executor.fetch(session, statement, params)
    ]


def _with_id(rows: list[SeamlessTransaction], txn_id: str | None) -> SeamlessTransaction | None:
    return next((txn for txn in rows if txn.txn_id == txn_id), None) if txn_id else None


async def _find(session: AsyncSession, provider: str, txn_id: str) -> SeamlessTransaction | None:
    row = await executor.fetch_one_or_none(session, _TXN, {"provider": provider, "txn_id": txn_id})
    return None if row is None else executor.attach(session, SeamlessTransaction, row)


async def _lock(session: AsyncSession, member_id: int, provider: str) -> _Locked | None:
    member = await session.get(Member, member_id)
    if member is None:
        return None
    # The wallet and the provider's clearing shard found and locked by one statement: a
    # callback is the hottest path (ADR 0033), and finding each first is two round trips more.
    found = await _lock_accounts(session, member, provider)
    if found is None:
        # A first movement: open what is missing, then lock both the same way.
        await ledger.player_wallet(session, member_id=member_id, currency=member.currency)
        await ledger.get_or_open_account(
            session,
            kind=AccountKind.SEAMLESS_CLEARING,
            owner=provider,
            currency=member.currency,
            member_id=member_id,
        )
        found = await _lock_accounts(session, member, provider)
        if found is None:
            raise RuntimeError("the wallet and clearing accounts just opened were not found")
    wallet, clearing = found
    return _Locked(member, wallet, clearing, wallet.balance)


async def _lock_accounts(
    session: AsyncSession, member: Member, provider: str
) -> tuple[LedgerAccount, LedgerAccount] | None:
    return await ledger.lock_wallet_with(
        session,
        kind=AccountKind.SEAMLESS_CLEARING,
        owner=provider,
        member_id=member.id,
        currency=member.currency,
    )


def _same(txn: SeamlessTransaction, kind: TxnKind, move: Move) -> bool:
    """Whether a stored transaction is this call again (the provider's retry)."""
    same = (
        txn.kind == kind
        and txn.member_id == move.member_id
        and txn.currency == move.currency
        and txn.round_id == move.round_id
        and txn.game_code == move.game_code
        and txn.reference_id == move.reference_id
    )
    # A rollback's amount is its bet's, not the caller's.
    return same and (kind is TxnKind.ROLLBACK or txn.amount == move.amount)


def _replay(
    txn: SeamlessTransaction, kind: TxnKind, move: Move, currency: Currency, balance: int
) -> Outcome:
    """The answer to a call met again: as the first time (the balance as it stands now) when it
    is the same call, else a duplicate of another's id."""
    status = Status.OK if _same(txn, kind, move) else Status.DUPLICATE
    return Outcome(status, currency, balance, balance, replayed=True)


def _replayed(
    found: list[SeamlessTransaction], locked: _Locked, kind: TxnKind, move: Move
) -> Outcome | None:
    """The answer to this call met again, if the rows looked up under the lock hold its id."""
    txn = _with_id(found, move.txn_id)
    if txn is None:
        return None
    return _replay(txn, kind, move, locked.member.currency, locked.balance)


async def _record(
    session: AsyncSession, kind: TxnKind, move: Move, amount: int, entry_id: int | None
) -> None:
    txn = await insert_now(
        session,
        SeamlessTransaction(
            provider=move.provider,
            txn_id=move.txn_id,
            kind=kind,
            member_id=move.member_id,
            currency=move.currency,
            amount=amount,
            round_id=move.round_id,
            game_code=move.game_code,
            reference_id=move.reference_id,
            entry_id=entry_id,
        ),
    )
    if entry_id is None:
        return
    # The member's statement shows each stake as money to the provider's card and each win or
    # refund as money back, like a transfer (the spec's statement types are fixed).
    card = move.provider.upper()
    outward = kind is TxnKind.BET
    await record_statement(
        session,
        member_id=move.member_id,
        statement_type=StatementType.TRANSFER,
        status=StatementStatus.SUCCESS,
        amount=amount,
        currency=move.currency,
        from_label=WALLET_LABEL if outward else card,
        to_label=card if outward else WALLET_LABEL,
        ref_type=f"seamless_{kind}",
        ref_id=txn.id,
    )


async def _round(
    session: AsyncSession, move: Move, *, bets: int = 0, wins: int = 0, create: bool = True
) -> None:
    """Add a move's money to its round, and close the round if the provider said so (each
    dialect maps its own flag to ``Move.round_closed``; nothing else closes a round)."""
    closed_at = utcnow() if move.round_closed else None
    if create:
        # One statement, the round opened or added to (a read then a write were two).
        opened = {
            "provider": move.provider,
            "round_id": move.round_id,
            "member_id": move.member_id,
            "game_code": move.game_code,
            "currency": move.currency,
            "bets": bets,
            "wins": wins,
            "opened_at": utcnow(),
            "closed_at": closed_at,
        }
        await executor.fetch(session, _round_upsert(session), opened)
        return
    params = {"provider": move.provider, "round_id": move.round_id}
    row = await executor.fetch_one_or_none(session, _ROUND, params)
    if row is None:
        return
    round_ = executor.attach(session, SeamlessRound, row)
    values: dict[str, object] = {"bets": round_.bets + bets, "wins": round_.wins + wins}
    if closed_at is not None and round_.closed_at is None:
        values["closed_at"] = closed_at
    await update_now(session, round_, values)


_ROUND_UPSERTS: dict[str, Insert] = {}


def _round_upsert(session: AsyncSession) -> Insert:
    """``INSERT … ON CONFLICT (provider, round_id) DO UPDATE``: the move's money added to its
    round, which is closed once the provider closes it (and never opened again)."""
    name = session.get_bind().dialect.name
    upsert = _ROUND_UPSERTS.get(name)
    if upsert is None:
        dialect_insert = postgresql_insert if name == "postgresql" else sqlite_insert
        columns = (
            "provider",
            "round_id",
            "member_id",
            "game_code",
            "currency",
            "bets",
            "wins",
            "opened_at",
            "closed_at",
        )
        statement = dialect_insert(_ROUNDS).values({c: bindparam(c) for c in columns})
        excluded = statement.excluded
        upsert = _ROUND_UPSERTS[name] = statement.on_conflict_do_update(
            index_elements=[_ROUNDS.c.provider, _ROUNDS.c.round_id],
            set_={
                "bets": _ROUNDS.c.bets + excluded.bets,
                "wins": _ROUNDS.c.wins + excluded.wins,
                "closed_at": func.coalesce(_ROUNDS.c.closed_at, excluded.closed_at),
            },
        ).returning(_ROUNDS.c.id)  # the executor reads rows back, on SQLite too
    return upsert


async def _move(
    session: AsyncSession,
    source: LedgerAccount,
    destination: LedgerAccount,
    amount: int,
    kind: str,
    move: Move,
) -> int | None:
    if amount == 0:  # a free spin's bet, a losing round's closing win: nothing to post
        return None
    # Both rows are locked since _lock, their objects showing what the lock read: not again.
    entry = await ledger.transfer_locked(
        session,
        source=source,
        destination=destination,
        amount=amount,
        kind=kind,
        actor=f"provider:{move.provider}",
        memo=function.memo(move),
    )
    return entry.id


async def bet(session: AsyncSession, move: Move) -> Outcome:
    """Take a stake from the wallet."""
    locked = await _lock(session, move.member_id, move.provider)
    if locked is None:
        return Outcome(Status.UNKNOWN_USER, move.currency, 0, 0)
    params = {"provider": move.provider, "txn_id": move.txn_id, "reference_id": move.txn_id}
    found = await _rows(session, _BET_OR_ITS_ROLLBACK, params)
    if (replay := _replayed(found, locked, TxnKind.BET, move)) is not None:
        return replay
    if move.currency != locked.member.currency:
        return locked.outcome(Status.WRONG_CURRENCY)
    if locked.member.status != MemberStatus.ACTIVE:
        return locked.outcome(Status.USER_DISABLED)
    if is_excluded(locked.member):
        await hits.record(
            session, locked.member, HitKind.EXCLUSION, channel="seamless", amount=move.amount
        )
        return replace(locked.outcome(Status.USER_DISABLED), kept=True)
    if any(txn.kind == TxnKind.ROLLBACK and txn.reference_id == move.txn_id for txn in found):
        return locked.outcome(Status.ROLLED_BACK)
    if await loss_limit_reached(session, locked.member):
        await hits.record(
            session, locked.member, HitKind.LOSS_LIMIT, channel="seamless", amount=move.amount
        )
        return replace(locked.outcome(Status.LIMIT_REACHED), kept=True)
    if locked.balance < move.amount:
        return locked.outcome(Status.NOT_ENOUGH_MONEY)
    entry_id = await _move(
        session, locked.wallet, locked.clearing, move.amount, function.entry_kind(TxnKind.BET), move
    )
    await _record(session, TxnKind.BET, move, move.amount, entry_id)
    await _round(session, move, bets=move.amount)
    return locked.outcome(Status.OK, locked.balance - move.amount)


async def _own_and_bet(session: AsyncSession, move: Move) -> list[SeamlessTransaction]:
    """A win's or rollback's own id and the bet it names, as stored, by one statement."""
    params = {"provider": move.provider, "txn_id": move.txn_id, "bet_id": move.reference_id}
    return await _rows(session, _TXN_AND_ITS_BET, params)


def _open_bet(move: Move, target: SeamlessTransaction | None) -> SeamlessTransaction | Status:
    """The bet a win or rollback names (as found), or why there is none to settle."""
    if target is None or target.kind != TxnKind.BET or target.member_id != move.member_id:
        return Status.UNKNOWN_BET
    if target.rolled_back:
        return Status.ROLLED_BACK
    return target


async def win(session: AsyncSession, move: Move) -> Outcome:
    """Pay a win (or close a lost round with 0) for a bet Pao took."""
    locked = await _lock(session, move.member_id, move.provider)
    if locked is None:
        return Outcome(Status.UNKNOWN_USER, move.currency, 0, 0)
    found = await _own_and_bet(session, move)
    if (replay := _replayed(found, locked, TxnKind.WIN, move)) is not None:
        return replay
    if move.currency != locked.member.currency:
        return locked.outcome(Status.WRONG_CURRENCY)
    target = _open_bet(move, _with_id(found, move.reference_id))
    if isinstance(target, Status):
        return locked.outcome(target)
    entry_id = await _move(
        session, locked.clearing, locked.wallet, move.amount, function.entry_kind(TxnKind.WIN), move
    )
    if not target.settled:
        await update_now(session, target, {"settled": True})
    await _record(session, TxnKind.WIN, move, move.amount, entry_id)
    await _round(session, move, wins=move.amount)
    return locked.outcome(Status.OK, locked.balance + move.amount)


async def rollback(session: AsyncSession, move: Move) -> Outcome:
    """Give a bet's stake back, once; remember a rollback whose bet has not come (yet)."""
    locked = await _lock(session, move.member_id, move.provider)
    if locked is None:
        return Outcome(Status.UNKNOWN_USER, move.currency, 0, 0)
    found = await _own_and_bet(session, move)
    if (replay := _replayed(found, locked, TxnKind.ROLLBACK, move)) is not None:
        return replay
    if move.reference_id is None:
        return locked.outcome(Status.UNKNOWN_BET)
    bet_row = _with_id(found, move.reference_id)
    if bet_row is None:
        # The provider timed out and rolled back blind: nothing was taken, so nothing moves,
        # but the refusal of the late bet is remembered (ADR 0025).
        await _record(session, TxnKind.ROLLBACK, move, 0, None)
        if move.round_closed:
            # It may still be the call that ends a round whose other bets Pao took (a table
            # round called off, one cancel per bet): close that round, but open none.
            await _round(session, move, create=False)
        return locked.outcome(Status.OK)
    target = _open_bet(move, bet_row)
    if isinstance(target, Status):
        return locked.outcome(target)
    if target.settled:
        return locked.outcome(Status.SETTLED)
    entry_id = await _move(
        session,
        locked.clearing,
        locked.wallet,
        target.amount,
        function.entry_kind(TxnKind.ROLLBACK),
        move,
    )
    await update_now(session, target, {"rolled_back": True})
    await _record(session, TxnKind.ROLLBACK, move, target.amount, entry_id)
    await _round(session, move, bets=-target.amount)
    return locked.outcome(Status.OK, locked.balance + target.amount)


async def replayed(session: AsyncSession, kind: TxnKind, move: Move) -> Outcome | None:
    """The answer to a call already processed (a read, no lock), or None: for a call refused
    before the money rules (an aged token) that must still answer its earlier success."""
    txn = await _find(session, move.provider, move.txn_id)
    if txn is None:
        return None
    now = await balance(session, move.member_id)
    return _replay(txn, kind, move, now.currency, now.balance)


async def balance(session: AsyncSession, member_id: int) -> Outcome:
    """The member's wallet as it stands (no lock: a read)."""
    member = await session.get(Member, member_id)
    if member is None:
        return Outcome(Status.UNKNOWN_USER, Currency.THB, 0, 0)
    wallet = await ledger.player_wallet(session, member_id=member_id, currency=member.currency)
    return Outcome(Status.OK, member.currency, wallet.balance, wallet.balance)


Operation = Callable[[AsyncSession], Awaitable[Outcome]]
Sessions = async_sessionmaker[AsyncSession]


async def play(sessions: Sessions, engine: AsyncEngine, kind: TxnKind, move: Move) -> Outcome:
    """A dialect's bet, win or rollback, committed before the provider hears the answer.

    On PostgreSQL one statement (:mod:`pao.games.seamless.function`, ADR 0033) by itself in
    autocommit on a connection of ``engine``'s pool: complete on its own, so neither BEGIN nor
    COMMIT is a round trip of its own, and it writes nothing but what it answers OK. Two
    members' calls racing on one new id: the unique index refuses the second statement whole,
    which runs again and finds the first's row (as :func:`run` does). What the function leaves
    to the steps, and SQLite, take the steps in a transaction (:func:`run`)."""
    if function.on_postgres(engine):
        for attempt in (1, 2):
            try:
                done = await function.call_alone(engine, kind, move)
            except IntegrityError:
                if attempt == 2:
                    raise
                continue
            if done is not None:
                return done
            break
    steps = {TxnKind.BET: bet, TxnKind.WIN: win, TxnKind.ROLLBACK: rollback}[kind]
    return await run(sessions, lambda session: steps(session, move))


async def run(sessionmaker: Sessions, operation: Operation) -> Outcome:
    """Run one call in its own transaction, committed before the provider hears the answer.

    Two calls racing on one new transaction id for different members both pass the lookup
    under their own member's lock; the unique index refuses the second, which then runs again
    and finds the first's row (a replay or a duplicate)."""
    for attempt in (1, 2):
        async with sessionmaker() as session:
            try:
                outcome = await operation(session)
                if outcome.ok or outcome.kept:
                    await session.commit()
                else:
                    await session.rollback()
                return outcome
            except IntegrityError:
                await session.rollback()
                if attempt == 2:
                    raise
    raise AssertionError("unreachable")
