"""A transfer's money transactions, one round trip each on PostgreSQL (ADR 0018).

:func:`begin_in` (wallet → game, transaction 1) calls ``pao_begin_transfer_in`` and
:func:`settle_confirmed` (transaction 2 of a transfer the provider confirmed, either
direction) calls ``pao_settle_transfer`` (:mod:`pao.games.ddl`) through the executor, with
every value the step-by-step path (:mod:`pao.games.transfers`) would write, and hand back the
transfer as an ORM object in the session, as if the steps had written it. ``None`` from
:func:`begin_in` and ``STEPS`` from :func:`settle_confirmed` mean "take the steps": a first
transfer, whose suspense account or float shard the steps open. SQLite always takes the
steps.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from enum import StrEnum
from typing import cast

from sqlalchemy import BigInteger, String, Table, bindparam, column, inspect, text
from sqlalchemy.exc import NoResultFound
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.db import UtcDateTime
from pao.games.exceptions import NoGame
from pao.games.models import GameTransfer, GameTransferStatus, TransferDirection
from pao.kit.money import Currency
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import SHARDS, AccountKind, Hold, HoldStatus
from pao.ledger.service import show_new_balances
from pao.wallet.models import Statement, StatementStatus, StatementType

# The hold's purpose (its entries are "hold:game" and "post:game"); it holds into the
# member's GAME_TRANSFERS_PENDING (pao.ledger.service._suspense_kind).
HOLD_PURPOSE = "game"
STATEMENT_REF = "game_transfer"
SETTLE_ACTOR = "games"
# set_statement_status's default actor: a line follows what it records.
STATEMENT_ACTOR = "system"
MEMO_PREFIX = "game transfer "
# The entry of a game → wallet transfer (float → wallet).
OUT_ENTRY_KIND = "game_withdraw"

_BEGIN = (
    text(
        "SELECT outcome, username, transfer_pk, hold_id, wallet_id, wallet_balance,"
        " suspense_id, suspense_balance FROM pao_begin_transfer_in("
        ":member_id, :currency, :code, :amount, :wallet_kind, :suspense_kind, :entry_kind,"
        " :actor, :memo, :purpose, :hold_status, :transfer_id, :direction, :status,"
        " :parent_id, :from_label, :next_check_at, :statement_type, :statement_status,"
        " :ref_type, :now)"
    )
    .bindparams(
        bindparam("parent_id", type_=BigInteger()),
        bindparam("next_check_at", type_=UtcDateTime()),
        bindparam("now", type_=UtcDateTime()),
    )
    .columns(
        outcome=String(),
        username=String(),
        transfer_pk=BigInteger(),
        hold_id=BigInteger(),
        wallet_id=BigInteger(),
        wallet_balance=BigInteger(),
        suspense_id=BigInteger(),
        suspense_balance=BigInteger(),
    )
)

_transfers = cast(Table, GameTransfer.__table__)
# The transfer's columns in the order select(GameTransfer) reads them (executor.attach).
_TRANSFER_COLUMNS = [
    _transfers.c[prop.columns[0].key] for prop in inspect(GameTransfer).column_attrs
]
_FIELDS = ", ".join(f"t_{c.name}" for c in _TRANSFER_COLUMNS)
_SETTLE = (
    text(
        f"SELECT outcome, {_FIELDS} FROM pao_settle_transfer("  # noqa: S608 - names, no input
        ":pk, :direction_in, :pending, :success, :float_kind, :shards, :wallet_kind,"
        " :in_entry_kind, :out_entry_kind, :actor,"
        " :memo_prefix, :hold_pending, :hold_posted, :hold_entity, :transfer_entity,"
        " :statement_entity, :ref_type, :statement_pending, :statement_success,"
        " :statement_actor, :balance, :now)"
    )
    .bindparams(bindparam("balance", type_=BigInteger()), bindparam("now", type_=UtcDateTime()))
    .columns(
        column("outcome", String()), *(column(f"t_{c.name}", c.type) for c in _TRANSFER_COLUMNS)
    )
)


# The seam a test patches to run the steps on PostgreSQL too (against which it holds the
# function).
on_postgres = executor.on_postgres


async def begin_in(
    session: AsyncSession,
    *,
    member_id: int,
    currency: Currency,
    code: str,
    amount: int,
    parent_id: int | None,
    from_label: str,
    next_check_at: datetime,
    now: datetime,
) -> tuple[GameTransfer, str] | None:
    """Transaction 1 of wallet → game in one statement: the transfer and the member's
    username on the game; ``None`` when the member's suspense account is still to be opened.
    NO_GAME or MONEY_NOT_ENOUGH as the steps refuse (nothing written)."""
    transfer_id = uuid.uuid4().hex
    outcome, username, pk, hold_id, wallet_id, wallet_balance, suspense_id, suspense_balance = (
        await executor.fetch(
            session,
            _BEGIN,
            {
                "member_id": member_id,
                "currency": currency,
                "code": code,
                "amount": amount,
                "wallet_kind": AccountKind.PLAYER_WALLET.value,
                "suspense_kind": AccountKind.GAME_TRANSFERS_PENDING.value,
                "entry_kind": f"hold:{HOLD_PURPOSE}",
                "actor": f"member:{member_id}",
                "memo": f"transfer to {code}",
                "purpose": HOLD_PURPOSE,
                "hold_status": HoldStatus.PENDING.value,
                "transfer_id": transfer_id,
                "direction": TransferDirection.IN.value,
                "status": GameTransferStatus.PENDING.value,
                "parent_id": parent_id,
                "from_label": from_label,
                "next_check_at": next_check_at,
                "statement_type": StatementType.TRANSFER.value,
                "statement_status": StatementStatus.PENDING.value,
                "ref_type": STATEMENT_REF,
                "now": now,
            },
        )
    )[0]
    if outcome == "NO_GAME":
        raise NoGame()
    if outcome == "ACCOUNTS_MISSING":
        return None
    if outcome == "MONEY_NOT_ENOUGH":
        raise InsufficientFunds()
    show_new_balances(session, [(wallet_id, wallet_balance), (suspense_id, suspense_balance)])
    transfer = GameTransfer(
        id=pk,
        transfer_id=transfer_id,
        member_id=member_id,
        game_code=code,
        direction=TransferDirection.IN,
        amount=amount,
        currency=currency,
        status=GameTransferStatus.PENDING,
        hold_id=hold_id,
        then_to=None,
        parent_id=parent_id,
        from_label=from_label,
        to_label=code,
        attempts=0,
        next_check_at=next_check_at,
        error=None,
        created_at=now,
        settled_at=None,
    )
    executor.persist_written(session, transfer)
    return transfer, username


class Settled(StrEnum):
    """What :func:`settle_confirmed` did (see :mod:`pao.games.ddl`)."""

    OK = "OK"
    SETTLED = "SETTLED"  # not PENDING any more: nothing written
    STEPS = "STEPS"  # locked, nothing written: the caller settles it by the steps


async def settle_confirmed(
    session: AsyncSession, *, pk: int, balance: int | None, now: datetime
) -> tuple[Settled, GameTransfer]:
    """Transaction 2 of a confirmed transfer: settled in one statement, or locked and left
    to the steps (:class:`Settled`). ``balance``: the game balance the provider reported, if
    any. The transfer comes back as the transaction leaves it, attached to the session."""
    rows = await executor.fetch(
        session,
        _SETTLE,
        {
            "pk": pk,
            "direction_in": TransferDirection.IN.value,
            "pending": GameTransferStatus.PENDING.value,
            "success": GameTransferStatus.SUCCESS.value,
            "float_kind": AccountKind.PROVIDER_FLOAT.value,
            "shards": SHARDS,
            "wallet_kind": AccountKind.PLAYER_WALLET.value,
            "in_entry_kind": f"post:{HOLD_PURPOSE}",
            "out_entry_kind": OUT_ENTRY_KIND,
            "actor": SETTLE_ACTOR,
            "memo_prefix": MEMO_PREFIX,
            "hold_pending": HoldStatus.PENDING.value,
            "hold_posted": HoldStatus.POSTED.value,
            "hold_entity": Hold.__tablename__,
            "transfer_entity": GameTransfer.__tablename__,
            "statement_entity": Statement.__tablename__,
            "ref_type": STATEMENT_REF,
            "statement_pending": StatementStatus.PENDING.value,
            "statement_success": StatementStatus.SUCCESS.value,
            "statement_actor": STATEMENT_ACTOR,
            "balance": balance,
            "now": now,
        },
    )
    outcome, *row = rows[0]
    if outcome == "NOT_FOUND":
        raise NoResultFound(f"no game transfer {pk}")
    if outcome == "MONEY_NOT_ENOUGH":  # pragma: no cover - suspense and float may go negative
        raise InsufficientFunds()
    return Settled(outcome), executor.attach(session, GameTransfer, row)
