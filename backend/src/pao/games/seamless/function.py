"""A seamless callback's money transaction in one round trip on PostgreSQL (ADR 0033, step 1).

:func:`call_alone` runs ``pao_seamless_call`` (:mod:`pao.games.seamless.ddl`) by itself, with
every value the core's steps would write, and answers the core's :class:`Outcome`; or
``None``: "take the steps" (a bet of a member with limits set or self-excluded, a first
movement whose accounts are still to be opened), nothing written. SQLite always takes the
steps (:mod:`pao.games.seamless.core`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, Boolean, String, bindparam, text
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from pao.core import executor
from pao.core.db import UtcDateTime
from pao.games.seamless.calls import Move, Outcome, Status
from pao.games.seamless.models import TxnKind
from pao.identity.models import MemberStatus
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, shard_of
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL

_CALL = (
    text(
        "SELECT outcome, replayed, member_currency, balance_before, balance_after"
        " FROM pao_seamless_call(:kind, :provider, :txn_id, :member_id, :currency, :round_id,"
        " :game_code, :amount, :reference_id, :round_closed, :bet, :win, :rollback, :active,"
        " :wallet_kind, :clearing_kind, :shard, :entry_kind, :actor, :memo, :statement_type,"
        " :statement_status, :wallet_label, :card_label, :ref_type, :now)"
    )
    .bindparams(bindparam("now", type_=UtcDateTime()))
    .columns(
        outcome=String(),
        replayed=Boolean(),
        member_currency=String(),
        balance_before=BigInteger(),
        balance_after=BigInteger(),
    )
)


def on_postgres(engine: AsyncEngine) -> bool:
    """Whether the calls take the function (the seam a test patches to run the steps on
    PostgreSQL too, against which it holds the function)."""
    return engine.dialect.name == "postgresql"


def entry_kind(kind: TxnKind) -> str:
    """The journal entry's kind of a call (the steps' and the function's)."""
    return f"seamless.{kind}"


def memo(move: Move) -> str:
    """The journal entry's memo: what a person reading the ledger needs to find the round."""
    return f"{move.game_code} {move.round_id} {move.txn_id}"[:200]


async def call(session: AsyncSession, kind: TxnKind, move: Move) -> Outcome | None:
    """The same in a transaction of the caller's (a test holds a call's transaction open with
    it, to make two calls race)."""
    return _outcome(await executor.fetch(session, _CALL, _params(kind, move)))


async def call_alone(engine: AsyncEngine, kind: TxnKind, move: Move) -> Outcome | None:
    """The call done in one statement in autocommit: complete by itself, as the function
    writes nothing but what it answers OK (``None``: the steps must do it)."""
    return _outcome(await executor.fetch_alone(engine, _CALL, _params(kind, move)))


# What every call passes the same (the constants live in Python: pao.games.seamless.ddl).
_CONSTANTS: dict[str, object] = {
    "bet": TxnKind.BET.value,
    "win": TxnKind.WIN.value,
    "rollback": TxnKind.ROLLBACK.value,
    "active": MemberStatus.ACTIVE.value,
    "wallet_kind": AccountKind.PLAYER_WALLET.value,
    "clearing_kind": AccountKind.SEAMLESS_CLEARING.value,
    "statement_type": StatementType.TRANSFER.value,
    "statement_status": StatementStatus.SUCCESS.value,
    "wallet_label": WALLET_LABEL,
}


def _params(kind: TxnKind, move: Move) -> dict[str, object]:
    return {
        **_CONSTANTS,
        "kind": kind.value,
        "provider": move.provider,
        "txn_id": move.txn_id,
        "member_id": move.member_id,
        "currency": move.currency.value,
        "round_id": move.round_id,
        "game_code": move.game_code,
        "amount": move.amount,
        "reference_id": move.reference_id,
        "round_closed": move.round_closed,
        "shard": shard_of(AccountKind.SEAMLESS_CLEARING, move.member_id),
        "entry_kind": entry_kind(kind),
        "actor": f"provider:{move.provider}",
        "memo": memo(move),
        "card_label": move.provider.upper(),
        "ref_type": f"seamless_{kind}",
        "now": utcnow(),
    }


def _outcome(rows: list[tuple[Any, ...]]) -> Outcome | None:
    outcome, replayed, currency, before, after = rows[0]
    if outcome == "STEPS":
        return None
    return Outcome(Status(outcome), Currency(currency), after, before, replayed=replayed)
