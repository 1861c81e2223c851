"""What every promotion needs: the member lock, the active bonus, paying a reward, and the
seams to the games domain (game results, game balances).

**The member lock.** Every operation that pays a reward or grants a bonus first locks the
member's player wallet account row (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite runs one
writer at a time), then reads the state it decides on. Two racing clicks are therefore judged
one after the other, and the second sees what the first did. Locks are taken in one order —
the member's wallet, then the promotion row, then the ledger's accounts — and the wallet is
also what a deposit locks first, so they cannot deadlock (see :func:`lock_member`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import structlog
from sqlalchemy import ColumnElement, bindparam, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount
from pao.ledger.service import credit_wallet, player_wallet
from pao.promotions.models import MemberBonus, MemberBonusStatus
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.service import wallet_balance
from pao.wallet.statements import WALLET_LABEL, record_statement

log = structlog.get_logger(__name__)

# The ``from`` label of promotion statement lines.
PROMOTION_LABEL = "PROMOTION"


async def lock_member(session: AsyncSession, *, member_id: int) -> Member:
    """Take the member's promotions lock: the row of their player wallet account.

    Not the ``members`` row: a deposit locks the wallet account first (in the ledger) and then
    updates ``members.coin`` (wheel coins, in the same transaction), so locking ``members``
    before the ledger here could deadlock against it. Every payout here moves money into this
    very wallet, so taking its row first keeps one lock order everywhere."""
    member = await session.get(Member, member_id)
    assert member is not None
    wallet = await player_wallet(session, member_id=member_id, currency=Currency(member.currency))
    await session.execute(
        select(LedgerAccount.id).where(LedgerAccount.id == wallet.id).with_for_update()
    )
    return member


async def active_bonus(
    session: AsyncSession, *, member_id: int, for_update: bool = False
) -> MemberBonus | None:
    query = _ACTIVE_FOR_UPDATE if for_update else _ACTIVE
    return (await session.execute(query, {"member_id": member_id})).scalar_one_or_none()


async def has_active_bonus(session: AsyncSession, *, member_id: int) -> bool:
    """Whether the member has an active bonus: the gate every withdrawal and transfer asks,
    run through pao.core.executor (on PostgreSQL on the driver)."""
    return bool(await executor.fetch(session, _ACTIVE_ID, {"member_id": member_id}))


def active_bonus_exists(member_id: ColumnElement[Any]) -> ColumnElement[bool]:
    """:func:`has_active_bonus` as an expression of an enclosing statement, for ``member_id``
    (one of its columns or scalar subqueries)."""
    return (
        select(MemberBonus.id)
        .where(
            MemberBonus.member_id == member_id,
            MemberBonus.status == MemberBonusStatus.ACTIVE,
        )
        .exists()
    )


# Prebuilt: every withdrawal and transfer asks (pao.promotions.gates).
_ACTIVE = select(MemberBonus).where(
    MemberBonus.member_id == bindparam("member_id"),
    MemberBonus.status == MemberBonusStatus.ACTIVE,
)
_ACTIVE_FOR_UPDATE = _ACTIVE.with_for_update().execution_options(populate_existing=True)
_ACTIVE_ID = select(MemberBonus.id).where(
    MemberBonus.member_id == bindparam("member_id"),
    MemberBonus.status == MemberBonusStatus.ACTIVE,
)


@dataclass(frozen=True)
class Payout:
    entry: JournalEntry
    statement_id: int


async def pay_reward(
    session: AsyncSession,
    *,
    member: Member,
    amount: int,
    kind: str,
    ref_type: str,
    ref_id: int | str,
    extra: Mapping[str, Any],
    memo: str,
) -> Payout:
    """Move ``amount`` from the operator's bonus expense into the member's wallet, with a
    ``bonus`` statement line. The caller has locked the member and checked the state."""
    currency = Currency(member.currency)
    # The member's shard of the expense account and the wallet, found and locked together
    # (on PostgreSQL the whole movement is one statement: ADR 0018).
    entry = await credit_wallet(
        session,
        source_kind=AccountKind.BONUS_EXPENSE,
        member_id=member.id,
        currency=currency,
        amount=amount,
        kind=kind,
        actor=f"member:{member.id}",
        memo=memo[:500],
    )
    statement = await record_statement(
        session,
        member_id=member.id,
        statement_type=StatementType.BONUS,
        status=StatementStatus.SUCCESS,
        amount=amount,
        currency=currency,
        from_label=PROMOTION_LABEL,
        to_label=WALLET_LABEL,
        ref_type=ref_type,
        ref_id=ref_id,
        extra=extra,
    )
    return Payout(entry=entry, statement_id=statement.id)


@dataclass(frozen=True)
class GameResults:
    """Stakes (turnover) and winnings (payout) of a member's settled bets, minor units."""

    turnover: int
    payout: int


class GameResultsSource(Protocol):
    async def __call__(
        self, app: Any, session: AsyncSession, *, member_id: int, since: datetime, until: datetime
    ) -> Any: ...


async def game_results(
    app: Any, session: AsyncSession, *, member_id: int, since: datetime, until: datetime
) -> GameResults:
    """The member's game results in ``[since, until)`` from the games domain
    (``pao.games.turnover.game_results``). Without a games domain nobody can bet: zero.

    ``app.state.promotions_game_results`` replaces the source in unit tests only."""
    source: GameResultsSource | None = getattr(app.state, "promotions_game_results", None)
    if source is None:
        try:
            from pao.games.turnover import game_results as games_source
        except ImportError:
            return GameResults(turnover=0, payout=0)
        source = games_source
    try:
        result = await source(app, session, member_id=member_id, since=since, until=until)
    except Exception as exc:
        # pao.games.providers.base.ProviderError (not imported: games is optional here).
        if not any(cls.__name__ == "ProviderError" for cls in type(exc).__mro__):
            raise
        # A provider did not answer: count nothing rather than guess. Clearing a bonus and
        # receiving a refund then wait (they are refused, never over-paid); try again later.
        log.warning("game results unavailable", member_id=member_id, error=str(exc))
        return GameResults(turnover=0, payout=0)
    return GameResults(turnover=int(result.turnover), payout=int(result.payout))


async def game_balances(session: AsyncSession, *, member_id: int) -> int:
    """The member's money at game providers, as last reported (0 without a games domain)."""
    try:
        from pao.games.models import GameAccount
    except ImportError:
        return 0
    total = (
        await session.execute(
            select(func.coalesce(func.sum(GameAccount.last_balance), 0)).where(
                GameAccount.member_id == member_id
            )
        )
    ).scalar_one()
    return int(total or 0)


async def total_balance(session: AsyncSession, *, member: Member) -> int:
    """Wallet plus game accounts: what percentFail compares."""
    wallet = await wallet_balance(session, member_id=member.id, currency=Currency(member.currency))
    return wallet + await game_balances(session, member_id=member.id)
