"""A member's transfer between the wallet and a game, up to the provider call, as one
statement on PostgreSQL (issue 36, ADR 0039).

:func:`begin_alone` runs ``pao_transfer_begin`` (:mod:`pao.games.ddl`) by itself, in
autocommit, as the withdrawal's request runs (:mod:`pao.wallet.withdrawal_statement`). It
covers, in order:
- the login behind the bearer token and its member;
- player protection's flags, when money goes to play: a member with limits set or excluded
  takes the steps, which check and record the refusal;
- the replay of a recorded ``Idempotency-Key``;
- the provider's state and the transfer gate, both passed in;
- the key's claim;
- the transfer begun: wallet → game by ``pao_begin_transfer_in`` (the hold, the transfer and
  its statement line); game → wallet, the game's account checked, the transfer and its
  statement line (no money moves before the provider confirms);
- the key's answer.

Transaction 1 is then committed, and the caller drives the provider call and transaction 2 as
the steps' path does (:func:`pao.games.transfers.drive`).

It answers :class:`Begun` (the transfer to drive), :class:`Replayed` (the transfers a first
request started), or ``None`` ("take the steps", nothing written). ``None`` covers a member's
first transfer, whose suspense account the steps open, and a protected member. The steps also
serve SQLite and game → game (:func:`pao.games.transfers.transfer_alone`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Select,
    String,
    bindparam,
    column,
    false,
    func,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from pao.core import executor
from pao.core.db import UtcDateTime
from pao.core.errors import AppError, Unauthorized
from pao.core.literals import constant
from pao.games.exceptions import NoGame
from pao.games.models import GameTransferStatus, TransferDirection
from pao.games.ports import TRANSFER_GATE, TransferGate
from pao.games.schemas import TransferOut, TransferResponse
from pao.games.transfer_functions import HOLD_PURPOSE, STATEMENT_REF
from pao.identity.deps import bearer_digest, member_id_of_token
from pao.identity.models import MemberStatus
from pao.kit.idempotency import IdempotencyKeyReused, key_is_well_formed, request_hash
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, HoldStatus
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL

# The key's operation and owner, the steps' too (pao.games.transfers: a key reused across the
# two ways of a request replays).
OPERATION = "games.transfer"
OWNER_PREFIX = "member:"

_REFUSALS: dict[str, type[AppError]] = {
    "UNAUTHORIZED": Unauthorized,
    "KEY_REUSED": IdempotencyKeyReused,
    "NO_GAME": NoGame,
    "MONEY_NOT_ENOUGH": InsufficientFunds,
}


@dataclass(frozen=True)
class Begun:
    """Transaction 1 done and committed: the transfer to drive."""

    pk: int
    transfer_id: str
    username: str


@dataclass(frozen=True)
class Replayed:
    """A retry: the transfers the first request started, to answer from."""

    pks: list[int]


def _build(gate: TransferGate, code: str, direction: TransferDirection) -> Select[Any]:
    stake = direction == TransferDirection.IN
    source, destination = (WALLET_LABEL, code) if stake else (code, WALLET_LABEL)
    call = func.pao_transfer_begin(
        bindparam("digest", type_=String()),
        bindparam("now", type_=UtcDateTime()),
        constant(MemberStatus.ACTIVE.value),
        constant(OWNER_PREFIX),
        bindparam("key", type_=String()),
        bindparam("request_hash", type_=String()),
        bindparam("unavailable", type_=Boolean()),
        gate.refuses(member_id_of_token(), source=source, destination=destination),
        bindparam("answer", type_=JSONB()),
        true() if stake else false(),
        constant(destination),
        constant(code),
        bindparam("amount", type_=BigInteger()),
        constant(AccountKind.PLAYER_WALLET.value),
        constant(AccountKind.GAME_TRANSFERS_PENDING.value),
        constant(f"hold:{HOLD_PURPOSE}"),
        constant(f"transfer to {code}"),
        constant(HOLD_PURPOSE),
        constant(HoldStatus.PENDING.value),
        bindparam("transfer_id", type_=String()),
        constant(direction.value),
        constant(GameTransferStatus.PENDING.value),
        constant(source),
        bindparam("next_check_at", type_=UtcDateTime()),
        constant(StatementType.TRANSFER.value),
        constant(StatementStatus.PENDING.value),
        constant(STATEMENT_REF),
    ).table_valued(
        column("outcome", String()),
        column("username", String()),
        column("transfer_pk", BigInteger()),
        column("answer", JSON()),
    )
    return select(*call.c).select_from(call)


# The statements of the plugged-in gate, one per game and direction (the gate is asked about
# the move as the member asked it), built on first use.
_built: tuple[TransferGate, dict[tuple[str, TransferDirection], Select[Any]]] | None = None


def _statement(code: str, direction: TransferDirection) -> Select[Any]:
    global _built
    gate = TRANSFER_GATE.impl
    if _built is None or _built[0] is not gate:
        _built = (gate, {})
    statement = _built[1].get((code, direction))
    if statement is None:
        statement = _built[1][(code, direction)] = _build(gate, code, direction)
    return statement


async def begin_alone(
    engine: AsyncEngine,
    session: AsyncSession,
    credentials: HTTPAuthorizationCredentials | None,
    *,
    code: str,
    direction: TransferDirection,
    amount: int,
    key: str | None,
    unavailable: AppError | None,
    transfer_id: str,
    next_check_at: datetime,
    now: datetime,
) -> Begun | Replayed | None:
    """Transaction 1 of a transfer between the wallet and game ``code`` (``direction``: in,
    wallet → game; out, game → wallet), in one statement, committed (``unavailable``: the
    provider's refusal as the cache knows its state, answered after a replay, as the steps
    answer it)."""
    if key is not None and not key_is_well_formed(key):
        return None
    source, destination = (
        (WALLET_LABEL, code) if direction == TransferDirection.IN else (code, WALLET_LABEL)
    )
    answer = TransferResponse(
        code="PENDING",
        transfers=[
            TransferOut(
                transfer_id="0",
                from_=source,
                to=destination,
                amount=amount,
                status=GameTransferStatus.PENDING,
            )
        ],
    ).model_dump(mode="json", by_alias=True)
    params = {
        "digest": bearer_digest(credentials),
        "now": now,
        "key": key,
        "request_hash": request_hash(
            OPERATION, {"from": source, "to": destination, "amount": amount}
        ),
        "unavailable": unavailable is not None,
        "answer": answer,
        "amount": amount,
        "transfer_id": transfer_id,
        "next_check_at": next_check_at,
    }
    rows, alone = await executor.fetch_in_request(
        engine, session, _statement(code, direction), params
    )
    if not alone:  # transaction 1 is committed before the provider is called
        await session.commit()
    outcome, username, pk, recorded = rows[0]
    if outcome == "OK":
        return Begun(pk=pk, transfer_id=transfer_id, username=username)
    if outcome == "REPLAYED":
        return Replayed(pks=[int(t["transferId"]) for t in recorded["transfers"]])
    if outcome in ("STEPS", "ACCOUNTS_MISSING"):
        return None
    if outcome == "UNAVAILABLE":
        assert unavailable is not None
        raise unavailable
    if outcome == "GATE_REFUSED":
        raise TRANSFER_GATE.impl.refusal()
    raise _REFUSALS[outcome]()
