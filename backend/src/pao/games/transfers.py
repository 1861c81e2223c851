"""Transfers between the wallet and game accounts: a saga on the ledger's two-phase holds
(money rule 4). Recipes: docs/domain/ledger.md.

Wallet → game (``direction = in``)::

    tx 1  hold (player_wallet → game_transfers_pending) + GameTransfer PENDING + statement
          line PENDING + the Idempotency-Key record; COMMIT
    call  provider.deposit(transfer_id)              — outside any transaction
    tx 2  confirmed → post the hold to provider_float[code]; SUCCESS
          refused   → void the hold (money back);     FAILED  → TRANSFER_FAIL
          unknown   → keep the hold; PENDING          → the reconciler asks the provider

Game → wallet (``direction = out``)::

    tx 1  GameTransfer PENDING + statement line; COMMIT   (no money moves yet)
    call  provider.withdraw(transfer_id)
    tx 2  confirmed → provider_float[code] → player_wallet; SUCCESS
          refused   → FAILED (nothing moved; MONEY_NOT_ENOUGH when the game balance is short)
          unknown   → PENDING → the reconciler

Game → game goes through the wallet: leg one is an ``out`` transfer that names the game of
leg two (``then_to``); the transaction that settles leg one as SUCCESS also starts leg two
(its hold and row), so the money is never in limbo between the legs. If leg two is refused,
the money stays in the wallet (TRANSFER_FAIL: funds returned to the wallet).

A provider in maintenance or marked down (pao.games.availability) is refused first, in
transaction 1 before the hold: PROVIDER_MAINTENANCE / PROVIDER_UNAVAILABLE, nothing written.
Transfers already PENDING are left to the reconciler, which keeps asking the provider.

A crash at any point loses nothing and pays nothing twice: every state between the two
transactions is a committed PENDING row; the reconciler (:mod:`pao.games.reconciler`) asks the
provider for the transfer id's status, re-sends the same transfer id if the provider never
saw it (the provider treats it as an idempotency key), and settles under a row lock — a
transfer settles exactly once, whoever gets there first.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, cast

import structlog
from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy import Table, bindparam, select, update
from sqlalchemy.exc import NoResultFound
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.core import executor
from pao.core.errors import AppError
from pao.core.inserts import insert_now, update_now
from pao.games import transfer_functions, transfer_statement
from pao.games.availability import ensure_available
from pao.games.exceptions import NoGame, SameAccount, TransferFailed, TransferMinimum
from pao.games.models import (
    GAME_TRANSFER_TRANSITIONS,
    Game,
    GameAccount,
    GameTransfer,
    GameTransferStatus,
    TransferDirection,
)
from pao.games.ports import TRANSFER_GATE
from pao.games.providers import provider_for
from pao.games.providers.base import (
    ProviderError,
    ProviderRefused,
    ProviderUnavailable,
    RemoteTransfer,
    RemoteTransferState,
)
from pao.games.schemas import TransferOut, TransferResponse
from pao.games.transfer_functions import (
    HOLD_PURPOSE,
    MEMO_PREFIX,
    OUT_ENTRY_KIND,
    STATEMENT_REF,
    Settled,
)
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.events import GameTransferSettled, publish
from pao.kit.idempotency import run_idempotent
from pao.kit.money import MINOR_PER_MAJOR, Currency
from pao.kit.states import transition_now
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind
from pao.ledger.service import (
    get_or_open_account,
    hold_from_wallet,
    player_wallet,
    post_hold,
    void_hold,
)
from pao.ledger.service import transfer as ledger_transfer
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL, record_statement, set_statement_status

log = structlog.get_logger(__name__)

WALLET = WALLET_LABEL
# Spec §5 and §9: a transfer moves at least 1 baht.
TRANSFER_MINIMUM = 1 * MINOR_PER_MAJOR
# session.info key: the game usernames the transaction has read ((member id, code) → username),
# so that the provider call can be planned from transaction 1 without reading them again.
_USERNAMES = "pao.games.usernames"
# The reconciler leaves a fresh transfer alone for this long, so it does not race the request
# that is still talking to the provider; then it retries with a growing back-off.
RECONCILE_GRACE = timedelta(seconds=30)
RECONCILE_BACKOFF_MAX = timedelta(minutes=10)
ACTOR = transfer_functions.SETTLE_ACTOR


def _sessionmaker(app: Any) -> async_sessionmaker[AsyncSession]:
    factory: async_sessionmaker[AsyncSession] = app.state.sessionmaker
    return factory


def _is_wallet(label: str) -> bool:
    return label.upper() == WALLET


# The transfer path's statements, prebuilt and sent on the executor (pao.core.executor): the
# transactions of a transfer send no statement the ORM builds.
# Of the game only its flag is needed: one column, and no Game object to attach (attaching
# what the executor reads is part of a transfer's SQLAlchemy CPU, ADR 0014).
_GAME_ENABLED = select(Game.enabled).where(Game.code == bindparam("code"))
_GAME_ACCOUNT = select(GameAccount).where(
    GameAccount.member_id == bindparam("member_id"), GameAccount.game_code == bindparam("code")
)
_LOCK_TRANSFER = select(GameTransfer).where(GameTransfer.id == bindparam("pk")).with_for_update()
_game_accounts = cast(Table, GameAccount.__table__)
_REMEMBER_BALANCE = (
    update(_game_accounts)
    .where(
        _game_accounts.c.member_id == bindparam("b_member_id"),
        _game_accounts.c.game_code == bindparam("b_code"),
    )
    .values(last_balance=bindparam("b_balance"), balance_at=bindparam("b_at"))
)


async def _account(session: AsyncSession, *, member_id: int, code: str) -> GameAccount:
    """The member's account on an enabled game, or NO_GAME."""
    game = await executor.fetch_one_or_none(session, _GAME_ENABLED, {"code": code})
    row = await executor.fetch_one_or_none(
        session, _GAME_ACCOUNT, {"member_id": member_id, "code": code}
    )
    if game is None or not game[0] or row is None:
        raise NoGame()
    account = executor.attach(session, GameAccount, row)
    session.info.setdefault(_USERNAMES, {})[(member_id, code)] = account.username
    return account


async def _insert_pending(session: AsyncSession, **fields: Any) -> GameTransfer:
    """A new PENDING transfer (a fresh id, due for the reconciler after its grace) and its
    statement line, both sent at once; ``fields`` are what the direction decides."""
    transfer = await insert_now(
        session,
        GameTransfer(
            transfer_id=uuid.uuid4().hex,
            status=GameTransferStatus.PENDING,
            next_check_at=utcnow() + RECONCILE_GRACE,
            **fields,
        ),
    )
    await _statement(session, transfer)
    return transfer


async def _statement(session: AsyncSession, transfer: GameTransfer) -> None:
    await record_statement(
        session,
        member_id=transfer.member_id,
        statement_type=StatementType.TRANSFER,
        status=StatementStatus.PENDING,
        amount=transfer.amount,
        currency=Currency(transfer.currency),
        from_label=transfer.from_label,
        to_label=transfer.to_label,
        ref_type=STATEMENT_REF,
        ref_id=transfer.id,
    )


async def begin_in(
    session: AsyncSession,
    *,
    member_id: int,
    currency: Currency,
    code: str,
    amount: int,
    parent_id: int | None = None,
    from_label: str = WALLET,
) -> GameTransfer:
    """Transaction 1 of wallet → game: hold the money and record the intent (``from_label``:
    what the member sees as its origin; leg two of game → game shows leg one's game). On
    PostgreSQL one statement (pao.games.transfer_functions) once the member has transferred
    before."""
    if transfer_functions.on_postgres(session):
        now = utcnow()
        begun = await transfer_functions.begin_in(
            session,
            member_id=member_id,
            currency=currency,
            code=code,
            amount=amount,
            parent_id=parent_id,
            from_label=from_label,
            next_check_at=now + RECONCILE_GRACE,
            now=now,
        )
        if begun is not None:
            transfer, username = begun
            session.info.setdefault(_USERNAMES, {})[(member_id, code)] = username
            return transfer
    await _account(session, member_id=member_id, code=code)
    hold = await hold_from_wallet(
        session,
        member_id=member_id,
        currency=currency,
        amount=amount,
        purpose=HOLD_PURPOSE,
        actor=f"member:{member_id}",
        memo=f"transfer to {code}",
    )
    return await _insert_pending(
        session,
        member_id=member_id,
        game_code=code,
        direction=TransferDirection.IN,
        amount=amount,
        currency=currency,
        hold_id=hold.id,
        parent_id=parent_id,
        from_label=from_label,
        to_label=code,
    )


async def begin_out(
    session: AsyncSession,
    *,
    member_id: int,
    currency: Currency,
    code: str,
    amount: int,
    then_to: str | None = None,
) -> GameTransfer:
    """Transaction 1 of game → wallet: record the intent (no money moves before the
    provider confirms)."""
    await _account(session, member_id=member_id, code=code)
    if then_to is not None:
        await _account(session, member_id=member_id, code=then_to)
    return await _insert_pending(
        session,
        member_id=member_id,
        game_code=code,
        direction=TransferDirection.OUT,
        amount=amount,
        currency=currency,
        then_to=then_to,
        from_label=code,
        to_label=WALLET,
    )


async def lock_transfer(session: AsyncSession, pk: int) -> GameTransfer:
    """The transfer, locked and read afresh (the object in the session refreshed)."""
    rows = await executor.fetch(session, _LOCK_TRANSFER, {"pk": pk})
    if not rows:
        raise NoResultFound(f"no game transfer {pk}")
    return executor.attach(session, GameTransfer, rows[0])


async def _remember_balance(
    session: AsyncSession, transfer: GameTransfer, balance: int | None
) -> None:
    if balance is None:
        return
    await executor.execute_many(
        session,
        _REMEMBER_BALANCE,
        [
            {
                "b_member_id": transfer.member_id,
                "b_code": transfer.game_code,
                "b_balance": balance,
                "b_at": utcnow(),
            }
        ],
    )


async def _succeed(
    session: AsyncSession, transfer: GameTransfer, remote: RemoteTransfer
) -> int | None:
    currency = Currency(transfer.currency)
    float_account = await get_or_open_account(
        session,
        kind=AccountKind.PROVIDER_FLOAT,
        currency=currency,
        owner=transfer.game_code,
        member_id=transfer.member_id,
    )
    memo = f"{MEMO_PREFIX}{transfer.transfer_id}"
    if transfer.direction == TransferDirection.IN:
        assert transfer.hold_id is not None
        await post_hold(
            session, hold_id=transfer.hold_id, destination=float_account, actor=ACTOR, memo=memo
        )
    else:
        wallet = await player_wallet(session, member_id=transfer.member_id, currency=currency)
        await ledger_transfer(
            session,
            source=float_account,
            destination=wallet,
            amount=transfer.amount,
            kind=OUT_ENTRY_KIND,
            actor=ACTOR,
            memo=memo,
        )
    await transition_now(
        session,
        transfer,
        GameTransferStatus.SUCCESS,
        GAME_TRANSFER_TRANSITIONS,
        actor=ACTOR,
        also={"settled_at": utcnow()},
    )
    await _remember_balance(session, transfer, remote.balance)
    await set_statement_status(
        session, ref_type=STATEMENT_REF, ref_id=transfer.id, status=StatementStatus.SUCCESS
    )
    await _published(session, transfer)
    return await _leg_two(session, transfer)


async def _leg_two(session: AsyncSession, transfer: GameTransfer) -> int | None:
    """Game → game: leg two starts in the same transaction that put the money in the wallet,
    so the money is never between the legs without a record saying where next."""
    if transfer.direction != TransferDirection.OUT or not transfer.then_to:
        return None
    leg_two = await begin_in(
        session,
        member_id=transfer.member_id,
        currency=Currency(transfer.currency),
        code=transfer.then_to,
        amount=transfer.amount,
        parent_id=transfer.id,
        from_label=transfer.from_label,
    )
    return leg_two.id


async def _published(session: AsyncSession, transfer: GameTransfer) -> None:
    await publish(
        session,
        GameTransferSettled(
            member_id=transfer.member_id,
            amount=transfer.amount,
            currency=Currency(transfer.currency),
            game_code=transfer.game_code,
            direction=str(transfer.direction),
        ),
    )


async def _fail(session: AsyncSession, transfer: GameTransfer, reason: str) -> None:
    if transfer.direction == TransferDirection.IN:
        assert transfer.hold_id is not None
        await void_hold(
            session,
            hold_id=transfer.hold_id,
            actor=ACTOR,
            memo=f"game transfer {transfer.transfer_id} refused: {reason}"[:500],
        )
    await transition_now(
        session,
        transfer,
        GameTransferStatus.FAILED,
        GAME_TRANSFER_TRANSITIONS,
        actor=ACTOR,
        reason=reason[:500],
        also={"error": reason[:200], "settled_at": utcnow()},
    )
    await set_statement_status(
        session, ref_type=STATEMENT_REF, ref_id=transfer.id, status=StatementStatus.FAILED
    )


@dataclass(frozen=True)
class Outcome:
    """What a provider call told us: ``remote`` (an answer), or ``refused`` (definite no),
    or neither (unknown)."""

    remote: RemoteTransfer | None = None
    refused: str | None = None
    unknown: str | None = None


async def settle(session: AsyncSession, *, pk: int, outcome: Outcome) -> int | None:
    """Transaction 2: apply a provider outcome to a PENDING transfer, under its row lock.

    Returns the id of a transfer to drive next (leg two of game → game), if any. A transfer
    that is no longer PENDING is left alone: someone else settled it first."""
    next_pk, _ = await _settle(session, pk=pk, outcome=outcome)
    return next_pk


async def _settle(
    session: AsyncSession, *, pk: int, outcome: Outcome
) -> tuple[int | None, GameTransfer]:
    """:func:`settle`, also giving the transfer as it now stands."""
    remote = outcome.remote
    confirmed = remote is not None and remote.state == RemoteTransferState.SUCCESS
    if confirmed and transfer_functions.on_postgres(session):
        # Settled in one statement, or it comes back locked for the steps below (a float
        # shard or wallet to open first).
        assert remote is not None
        settled, transfer = await transfer_functions.settle_confirmed(
            session, pk=pk, balance=remote.balance, now=utcnow()
        )
        if settled == Settled.OK:
            await _published(session, transfer)
            return await _leg_two(session, transfer), transfer
    else:
        transfer = await lock_transfer(session, pk)
    if transfer.status != GameTransferStatus.PENDING:
        return None, transfer
    if remote is not None and remote.state == RemoteTransferState.SUCCESS:
        return await _succeed(session, transfer, remote), transfer
    if remote is not None and remote.state == RemoteTransferState.FAILED:
        await _fail(session, transfer, remote.reason or "FAILED")
        await _remember_balance(session, transfer, remote.balance)
        return None, transfer
    if outcome.refused is not None:
        await _fail(session, transfer, outcome.refused)
        return None, transfer
    # Unknown (time-out, 5xx, or a status query that found nothing yet): keep the hold and
    # look again later, backing off.
    attempts = transfer.attempts + 1
    delay = min(RECONCILE_GRACE * (2 ** min(attempts, 8)), RECONCILE_BACKOFF_MAX)
    await update_now(
        session,
        transfer,
        {
            "attempts": attempts,
            "next_check_at": utcnow() + delay,
            "error": (outcome.unknown or "UNKNOWN")[:200],
        },
    )
    return None, transfer


async def call_provider(
    app: Any, *, code: str, direction: str, username: str, amount: int, transfer_id: str
) -> Outcome:
    """Send the transfer (again) with our transfer id; classify the answer."""
    provider = provider_for(app, game_code=code)
    try:
        if direction == TransferDirection.IN:
            remote = await provider.deposit(
                username=username, amount=amount, transfer_id=transfer_id
            )
        else:
            remote = await provider.withdraw(
                username=username, amount=amount, transfer_id=transfer_id
            )
    except ProviderRefused as exc:
        return Outcome(refused=exc.reason)
    except ProviderUnavailable as exc:
        return Outcome(unknown=exc.reason)
    except ProviderError as exc:  # pragma: no cover - the two above are the only kinds
        return Outcome(unknown=exc.reason)
    return Outcome(remote=remote)


@dataclass(frozen=True)
class _Plan:
    pk: int
    code: str
    direction: str
    username: str
    amount: int
    transfer_id: str


async def _plan(session: AsyncSession, pk: int) -> _Plan | None:
    transfer = await session.get(GameTransfer, pk)
    if transfer is None or transfer.status != GameTransferStatus.PENDING:
        return None
    account = (
        await session.execute(
            select(GameAccount).where(
                GameAccount.member_id == transfer.member_id,
                GameAccount.game_code == transfer.game_code,
            )
        )
    ).scalar_one()
    return _Plan(
        pk=pk,
        code=transfer.game_code,
        direction=str(transfer.direction),
        username=account.username,
        amount=transfer.amount,
        transfer_id=transfer.transfer_id,
    )


def _plan_of(session: AsyncSession, transfer: GameTransfer) -> _Plan:
    """The provider call of a transfer just written in ``session`` (its game account was read
    by :func:`_account` in the same transaction)."""
    usernames: dict[tuple[int, str], str] = session.info[_USERNAMES]
    return _Plan(
        pk=transfer.id,
        code=transfer.game_code,
        direction=str(transfer.direction),
        username=usernames[(transfer.member_id, transfer.game_code)],
        amount=transfer.amount,
        transfer_id=transfer.transfer_id,
    )


def _out(transfer: GameTransfer) -> tuple[TransferOut, str, str | None]:
    """A transfer as the answer shows it, with its direction and error (see :func:`_answer`)."""
    out = TransferOut(
        transfer_id=transfer.transfer_id,
        from_=transfer.from_label,
        to=transfer.to_label,
        amount=transfer.amount,
        status=transfer.status,
    )
    return out, str(transfer.direction), transfer.error


_Shown = tuple[TransferOut, str, str | None]


async def drive(app: Any, pk: int, plan: _Plan | None = None) -> list[_Shown] | None:
    """Call the provider for a PENDING transfer and settle it; follow leg two of game → game.

    ``plan``: the call, when the caller has just written the transfer (transaction 1), so
    that it is not read again. Returns every transfer touched, in order, as it stood when its
    settling transaction ended (what the request answers), or None when one of them could not
    be planned (no longer PENDING: the caller reads their state instead)."""
    shown: list[_Shown] = []
    next_pk: int | None = pk
    while next_pk is not None:
        if plan is None or plan.pk != next_pk:
            async with _sessionmaker(app)() as session, session.begin():
                plan = await _plan(session, next_pk)
            if plan is None:
                return None
        outcome = await call_provider(
            app,
            code=plan.code,
            direction=plan.direction,
            username=plan.username,
            amount=plan.amount,
            transfer_id=plan.transfer_id,
        )
        async with _sessionmaker(app)() as session, session.begin():
            next_pk, settled = await _settle(session, pk=plan.pk, outcome=outcome)
            shown.append(_out(settled))
    return shown


# ---------------------------------------------------------------------------------------------
# The two request paths: POST /api/wallet/transfer and POST /api/wallet/transferAll.


def _validate(source: str, destination: str, amount: int) -> tuple[str, str]:
    source, destination = source.strip().upper(), destination.strip().upper()
    if source == destination:
        raise SameAccount()
    if amount < TRANSFER_MINIMUM:
        raise TransferMinimum()
    return source, destination


async def _begin(
    session: AsyncSession, *, member: Member, source: str, destination: str, amount: int
) -> GameTransfer:
    currency = Currency(member.currency)
    # The BONUS_REMAINING gate belongs to promotions (plugged into the games' port).
    await TRANSFER_GATE.impl(
        session, member_id=member.id, source=source, destination=destination, amount=amount
    )
    if _is_wallet(source):
        return await begin_in(
            session, member_id=member.id, currency=currency, code=destination, amount=amount
        )
    return await begin_out(
        session,
        member_id=member.id,
        currency=currency,
        code=source,
        amount=amount,
        then_to=None if _is_wallet(destination) else destination,
    )


class _Started(TransferResponse):
    """What the Idempotency-Key record keeps: the transfers a request started."""


async def _report(app: Any, pks: list[int]) -> TransferResponse:
    """The answer of a transfer request from the state of its transfers (and their leg twos),
    read from the database (a replay, or a transfer someone else settled first)."""
    async with _sessionmaker(app)() as session, session.begin():
        rows: list[_Shown] = []
        for pk in pks:
            row = await session.get(GameTransfer, pk)
            assert row is not None
            rows.append(_out(row))
            children = (
                await session.execute(select(GameTransfer).where(GameTransfer.parent_id == pk))
            ).scalars()
            rows.extend(_out(child) for child in children)
    return _answer(rows, requested=len(pks))


def _answer(rows: list[_Shown], *, requested: int) -> TransferResponse:
    """The answer of a transfer request from its transfers (each followed by its leg two).

    A refusal is an error (TRANSFER_FAIL, or MONEY_NOT_ENOUGH when a game balance was short);
    for transferAll only when nothing at all went through."""
    statuses = {out.status for out, _, _ in rows}
    if statuses == {GameTransferStatus.FAILED} or (
        requested == 1 and GameTransferStatus.FAILED in statuses
    ):
        failed = [row for row in rows if row[0].status == GameTransferStatus.FAILED]
        if (
            len(rows) == 1
            and failed[0][1] == TransferDirection.OUT
            and failed[0][2] == "INSUFFICIENT_BALANCE"
        ):
            raise InsufficientFunds()
        raise TransferFailed()
    return TransferResponse(
        code="PENDING" if GameTransferStatus.PENDING in statuses else "OK",
        transfers=[out for out, _, _ in rows],
    )


async def _finish(app: Any, pks: list[int], plans: list[_Plan] | None) -> TransferResponse:
    """Drive the transfers this request started (``plans``, from its transaction 1) and answer
    from the state each settling transaction left; a replay (no plans) answers from the
    database."""
    if plans is None:
        return await _report(app, pks)
    rows: list[_Shown] = []
    for plan in plans:
        shown = await drive(app, plan.pk, plan)
        if shown is None:  # pragma: no cover - a transfer just written is PENDING
            return await _report(app, pks)
        rows.extend(shown)
    return _answer(rows, requested=len(pks))


async def _start(
    session: AsyncSession,
    *,
    member: Member,
    key: str | None,
    operation: str,
    payload: dict[str, Any],
    begin: Any,
) -> list[int]:
    """Transaction 1 under the Idempotency-Key, committed on ``session`` before any provider
    call; returns the ids of the transfers it started (on a replay: those the first request
    started)."""

    async def action() -> _Started:
        rows: list[GameTransfer] = await begin(session)
        return _Started(
            code="PENDING",
            transfers=[
                TransferOut(
                    transfer_id=str(r.id),
                    from_=r.from_label,
                    to=r.to_label,
                    amount=r.amount,
                    status=r.status,
                )
                for r in rows
            ],
        )

    answer = await run_idempotent(
        session,
        owner=f"{transfer_statement.OWNER_PREFIX}{member.id}",
        key=key,
        operation=operation,
        payload=payload,
        action=action,
    )
    await session.commit()
    return [int(t["transferId"]) for t in answer["transfers"]]


async def request_transfer(
    app: Any,
    session: AsyncSession,
    *,
    member: Member,
    source: str,
    destination: str,
    amount: int,
    key: str | None,
) -> TransferResponse:
    """``POST /api/wallet/transfer``: wallet → game, game → wallet, or game → game.

    Transaction 1 runs in ``session``, the request's own, which has only read the member: one
    transaction less than a session of its own (its BEGIN, COMMIT and connection checkout),
    committed before the provider is called (on SQLite every transaction holds the write
    lock)."""
    source, destination = _validate(source, destination, amount)
    games = [label for label in (source, destination) if not _is_wallet(label)]

    async def begin(session: AsyncSession) -> list[GameTransfer]:
        await ensure_available(app, session, games)
        return [
            await _begin(
                session, member=member, source=source, destination=destination, amount=amount
            )
        ]

    before = _Counter()
    pks = await _start(
        session,
        member=member,
        key=key,
        operation=transfer_statement.OPERATION,
        payload={"from": source, "to": destination, "amount": amount},
        begin=_counting(begin, before),
    )
    return await _finish(app, pks, before.plans)


async def transfer_alone(
    app: Any,
    session: AsyncSession,
    credentials: HTTPAuthorizationCredentials | None,
    *,
    source: str,
    destination: str,
    amount: int,
    key: str | None,
) -> TransferResponse | None:
    """``POST /api/wallet/transfer`` between the wallet and a game with transaction 1 in one
    statement on PostgreSQL (:mod:`pao.games.transfer_statement`), then the provider call and
    transaction 2 as :func:`request_transfer` drives them; ``None`` when the request is the
    steps' (game → game, under the minimum, SQLite, a first transfer, a protected member),
    nothing written."""
    source, destination = source.strip().upper(), destination.strip().upper()
    if not (
        transfer_functions.on_postgres(session)
        and _is_wallet(source) != _is_wallet(destination)
        and amount >= TRANSFER_MINIMUM
    ):
        return None
    into_game = _is_wallet(source)
    code = destination if into_game else source
    direction = TransferDirection.IN if into_game else TransferDirection.OUT
    try:
        await ensure_available(app, session, [code])
        unavailable = None
    except AppError as refused:  # answered after a replay, as the steps answer it
        unavailable = refused
    now = utcnow()
    begun = await transfer_statement.begin_alone(
        app.state.engine,
        session,
        credentials,
        code=code,
        direction=direction,
        amount=amount,
        key=key,
        unavailable=unavailable,
        transfer_id=uuid.uuid4().hex,
        next_check_at=now + RECONCILE_GRACE,
        now=now,
    )
    if begun is None:
        return None
    if isinstance(begun, transfer_statement.Replayed):
        return await _finish(app, begun.pks, None)
    plan = _Plan(
        pk=begun.pk,
        code=code,
        direction=direction.value,
        username=begun.username,
        amount=amount,
        transfer_id=begun.transfer_id,
    )
    return await _finish(app, [begun.pk], [plan])


class _Counter:
    """What transaction 1 started, when it ran (None on a replay): each transfer's provider
    call, planned from what that transaction wrote and read."""

    plans: list[_Plan] | None = None


def _counting(begin: Any, counter: _Counter) -> Any:
    async def wrapped(session: AsyncSession) -> list[GameTransfer]:
        rows: list[GameTransfer] = await begin(session)
        counter.plans = [_plan_of(session, row) for row in rows]
        return rows

    return wrapped


async def request_transfer_all(
    app: Any, *, member: Member, destination: str, key: str | None
) -> TransferResponse:
    """``POST /api/wallet/transferAll``: the whole wallet to a game, or (``to`` = WALLET)
    every game account's balance back to the wallet."""
    destination = destination.strip().upper()
    currency = Currency(member.currency)
    balances: dict[str, int] = {}
    if _is_wallet(destination):
        from pao.games.service import refresh_balances

        slots = await refresh_balances(app, member_id=member.id)
        balances = {s.code: s.amount for s in slots if s.is_active and not s.stale}

    async def begin(session: AsyncSession) -> list[GameTransfer]:
        if not _is_wallet(destination):
            await ensure_available(app, session, [destination])
            wallet = await player_wallet(session, member_id=member.id, currency=currency)
            amount = wallet.balance
            if amount < TRANSFER_MINIMUM:
                raise TransferMinimum()
            return [
                await _begin(
                    session, member=member, source=WALLET, destination=destination, amount=amount
                )
            ]
        rows = [
            await _begin(session, member=member, source=code, destination=WALLET, amount=amount)
            for code, amount in sorted(balances.items())
            if amount >= TRANSFER_MINIMUM
        ]
        if not rows:
            raise TransferMinimum()
        return rows

    counter = _Counter()
    async with _sessionmaker(app)() as session:
        pks = await _start(
            session,
            member=member,
            key=key,
            operation="games.transferAll",
            payload={"to": destination},
            begin=_counting(begin, counter),
        )
    return await _finish(app, pks, counter.plans)
