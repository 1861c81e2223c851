"""A deposit credit's lock, entry, balances and postings in one round trip on PostgreSQL
(ADR 0018).

:func:`credit` calls ``pao_credit_wallet`` (:mod:`pao.ledger.credit_ddl`) through the executor,
with every value the step-by-step path of :func:`pao.ledger.service.credit_wallet` would write,
and hands back the journal entry as an ORM object in the session, as if the steps had inserted
it, with the two accounts' new balances (``pao.ledger.service.show_new_balances`` shows them
on the objects the session holds). ``None`` means "take the steps": a first movement of the
wallet or of the operator account's shard row, which the steps open. SQLite always takes the
steps.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, String, bindparam, text
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.db import UtcDateTime
from pao.kit.money import Currency
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, JournalEntry, shard_of

_CALL = (
    text(
        "SELECT outcome, entry_id, source_id, source_balance, wallet_id, wallet_balance"
        " FROM pao_credit_wallet(:source_kind, :source_owner, :source_shard, :wallet_kind,"
        " :wallet_owner, :wallet_shard, :currency, :amount, :entry_kind, :actor, :memo, :now)"
    )
    .bindparams(bindparam("now", type_=UtcDateTime()))
    .columns(
        outcome=String(),
        entry_id=BigInteger(),
        source_id=BigInteger(),
        source_balance=BigInteger(),
        wallet_id=BigInteger(),
        wallet_balance=BigInteger(),
    )
)


async def credit(
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
    now: datetime,
) -> tuple[JournalEntry, list[tuple[int, int]]] | None:
    """``amount`` from the operator account's shard row of ``member_id`` into the member's
    wallet, written in one statement: the entry and (account id, new balance) of both
    accounts; ``None`` when either account is still to be opened. MONEY_NOT_ENOUGH when an
    account that may not go negative would (nothing written)."""
    outcome, entry_id, source_id, source_balance, wallet_id, wallet_balance = (
        await executor.fetch(
            session,
            _CALL,
            {
                "source_kind": source_kind.value,
                "source_owner": source_owner,
                "source_shard": shard_of(source_kind, member_id),
                "wallet_kind": AccountKind.PLAYER_WALLET.value,
                "wallet_owner": str(member_id),
                "wallet_shard": shard_of(AccountKind.PLAYER_WALLET, member_id),
                "currency": currency,
                "amount": amount,
                "entry_kind": kind,
                "actor": actor,
                "memo": memo,
                "now": now,
            },
        )
    )[0]
    if outcome == "ACCOUNTS_MISSING":
        return None
    if outcome == "MONEY_NOT_ENOUGH":
        raise InsufficientFunds()
    entry = JournalEntry(
        id=entry_id, kind=kind, actor=actor, memo=memo, reverses_id=None, created_at=now
    )
    executor.persist_written(session, entry)
    return entry, [(source_id, source_balance), (wallet_id, wallet_balance)]
