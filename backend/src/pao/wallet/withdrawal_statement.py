"""A member's withdrawal request as one statement on PostgreSQL (issue 36, ADR 0039).

:func:`withdraw_alone` runs ``pao_withdraw`` (:mod:`pao.wallet.ddl`) by itself, in
autocommit, as a seamless callback runs its function (ADR 0033): the login behind the bearer
token and its member (identity's rules: an open login, an active member), the replay of a
recorded ``Idempotency-Key`` before anything is checked, the limits of the member's currency,
the bank account, the withdrawal gate (promotions' rule, a column of this statement through
:data:`pao.wallet.ports.WITHDRAWAL_GATE`), the key's claim, the hold, the withdrawal and its
statement line, and the key's answer. What it writes is exactly what it answers OK; a refusal
writes nothing (the two the hold finds after the claim take the claim back).

It answers what :func:`pao.kit.idempotency.run_idempotent` around
:func:`pao.wallet.withdrawals.request_withdrawal` answers, refusal for refusal, or ``None``:
"take the steps" (a member's first withdrawal, whose accounts the steps open). The steps also
serve SQLite and a key the kit refuses as malformed, which the steps refuse after the login,
as always.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fastapi.security import HTTPAuthorizationCredentials
from sqlalchemy import (
    JSON,
    BigInteger,
    Select,
    String,
    bindparam,
    column,
    func,
    literal_column,
    select,
)
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from pao.core import executor
from pao.core.db import UtcDateTime
from pao.core.errors import AppError, CurrencyNotOffered, Unauthorized
from pao.core.literals import constant, quoted
from pao.identity.deps import bearer_digest, member_id_of_token
from pao.identity.models import MemberStatus
from pao.kit.after_commit import committed_already
from pao.kit.clock import utcnow
from pao.kit.events import WithdrawalRequested, publish
from pao.kit.idempotency import IdempotencyKeyReused, key_is_well_formed, request_hash
from pao.kit.money import Currency
from pao.ledger.exceptions import InsufficientFunds
from pao.ledger.models import AccountKind, HoldStatus
from pao.site.settings import load_site_settings
from pao.wallet.exceptions import (
    AmountNotPositive,
    NoBankAccount,
    WithdrawAboveMaximum,
    WithdrawBelowMinimum,
)
from pao.wallet.models import StatementStatus, StatementType, WithdrawalStatus
from pao.wallet.ports import WITHDRAWAL_GATE, WithdrawalGate
from pao.wallet.schemas import WithdrawResponse
from pao.wallet.statements import WALLET_LABEL
from pao.wallet.withdrawals import (
    HOLD_PURPOSE,
    MEMO_PREFIX,
    OPERATION,
    OWNER_PREFIX,
    STATEMENT_REF,
)

# Refusals the function answers with data, as the steps raise them.
_REFUSALS: dict[str, type[AppError]] = {
    "UNAUTHORIZED": Unauthorized,
    "KEY_REUSED": IdempotencyKeyReused,
    "AMOUNT_NOT_POSITIVE": AmountNotPositive,
    "CURRENCY_NOT_OFFERED": CurrencyNotOffered,
    "BELOW_MINIMUM": WithdrawBelowMinimum,
    "ABOVE_MAXIMUM": WithdrawAboveMaximum,
    "NO_BANK_ACCOUNT": NoBankAccount,
    "MONEY_NOT_ENOUGH": InsufficientFunds,
}
# The answer with the withdrawal's id left to the function (the model's shape stays here).
_ANSWER_ID_FIELD = "withdrawalId"
_ANSWER = WithdrawResponse(code="OK", status=WithdrawalStatus.PENDING, withdrawal_id=0).model_dump(
    mode="json", by_alias=True
)
_CURRENCIES = list(Currency)


@dataclass(frozen=True)
class _Built:
    gate: WithdrawalGate
    statement: Select[Any]


def _build(gate: WithdrawalGate) -> _Built:
    currencies = ", ".join(quoted(c.value) for c in _CURRENCIES)
    call = func.pao_withdraw(
        bindparam("digest", type_=String()),
        bindparam("now", type_=UtcDateTime()),
        constant(MemberStatus.ACTIVE.value),
        constant(OWNER_PREFIX),
        bindparam("key", type_=String()),
        bindparam("request_hash", type_=String()),
        bindparam("amount", type_=BigInteger()),
        literal_column(f"ARRAY[{currencies}]"),
        bindparam("minimums", type_=ARRAY(BigInteger())),
        bindparam("maximums", type_=ARRAY(BigInteger())),
        gate.refuses(member_id_of_token()),
        literal_column(f"CAST({quoted(json.dumps(_ANSWER))} AS jsonb)"),
        *(
            constant(value)
            for value in (
                _ANSWER_ID_FIELD,
                MEMO_PREFIX,
                AccountKind.PLAYER_WALLET.value,
                AccountKind.WITHDRAWALS_PENDING.value,
                f"hold:{HOLD_PURPOSE}",
                HOLD_PURPOSE,
                HoldStatus.PENDING.value,
                WithdrawalStatus.PENDING.value,
                StatementType.WITHDRAW.value,
                StatementStatus.PENDING.value,
                WALLET_LABEL,
                STATEMENT_REF,
            )
        ),
    ).table_valued(
        column("outcome", String()),
        column("member_id", BigInteger()),
        column("currency", String()),
        column("withdrawal_id", BigInteger()),
        column("answer", JSON()),
    )
    return _Built(gate, select(*call.c).select_from(call))


_built: _Built | None = None


def _statement() -> Select[Any]:
    """The statement for the plugged-in gate: built on first use (the port is plugged at
    start-up, after this module is imported)."""
    global _built
    gate = WITHDRAWAL_GATE.impl
    built = _built
    if built is None or built.gate is not gate:
        built = _built = _build(gate)
    return built.statement


async def withdraw_alone(
    engine: AsyncEngine,
    session: AsyncSession,
    credentials: HTTPAuthorizationCredentials | None,
    *,
    amount: int,
    key: str | None,
) -> Any | None:
    """The JSON-ready answer of the withdrawal request, done in one statement; ``None`` when
    the steps must do it (nothing written). A refusal raises what the steps raise. The
    cashiers' queue hears of a new withdrawal once it is committed: at once when the statement
    ran alone, else at ``session``'s commit."""
    if not executor.on_postgres(session) or (key is not None and not key_is_well_formed(key)):
        return None
    digest = bearer_digest(credentials)
    settings = await load_site_settings(session)
    statement = _statement()
    params = {
        "digest": digest,
        "now": utcnow(),
        "key": key,
        "request_hash": request_hash(OPERATION, {"amount": amount}),
        "amount": amount,
        "minimums": [settings.withdraw_min.for_currency(c) for c in _CURRENCIES],
        "maximums": [settings.withdraw_max.for_currency(c) for c in _CURRENCIES],
    }
    rows, alone = await executor.fetch_in_request(engine, session, statement, params)
    outcome, member_id, currency, withdrawal_id, answer = rows[0]
    if outcome == "OK":
        event = WithdrawalRequested(
            withdrawal_id=withdrawal_id,
            member_id=member_id,
            amount=amount,
            currency=Currency(currency),
        )
        if alone:
            with committed_already(session):
                await publish(session, event)
        else:
            await publish(session, event)
        return answer
    if outcome == "REPLAYED":
        return answer
    if outcome == "ACCOUNTS_MISSING":
        return None
    if outcome == "GATE_REFUSED":
        raise WITHDRAWAL_GATE.impl.refusal()
    raise _REFUSALS[outcome]()
