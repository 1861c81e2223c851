"""Seamless play per provider over a range of days, from the ledger's daily summary (ADR 0015):
the stakes each provider's seamless clearing took (``seamless.bet``), gave back for rolled-back
stakes (``seamless.rollback``) and paid out as wins (``seamless.win``). Bets are the stakes less
those rolled back; GGR (gross gaming revenue) = bets − wins, the operator's take.

And the reconciliation: each provider's clearing balance in the ledger now, against what the
seamless transactions Pao recorded add up to (:func:`pao.games.seamless.history.
clearing_by_transactions`); the difference is zero unless the books and the record disagree.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from pao.games.seamless.history import clearing_by_transactions
from pao.kit.money import Currency
from pao.ledger.figures import balances
from pao.ledger.models import AccountKind
from pao.reports.ledger_days import flows
from pao.reports.tables import Range

BET, WIN, ROLLBACK = "seamless.bet", "seamless.win", "seamless.rollback"


@dataclass
class ProviderPlay:
    provider: str
    bet_count: int = 0
    stakes: int = 0  # every stake taken, rolled back or not
    rolled_back: int = 0
    win_count: int = 0
    wins: int = 0

    @property
    def bets(self) -> int:
        """The stakes that stand: taken less those given back by a rollback."""
        return self.stakes - self.rolled_back

    @property
    def ggr(self) -> int:
        return self.bets - self.wins


async def by_provider(session: AsyncSession, span: Range) -> list[ProviderPlay]:
    """Each seamless provider's play in ``span`` (a provider without a movement: no row)."""
    play: dict[str, ProviderPlay] = {}
    for flow in await flows(session, span, kinds={AccountKind.SEAMLESS_CLEARING}):
        row = play.setdefault(flow.owner, ProviderPlay(flow.owner))
        if flow.entry_kind == BET:
            row.bet_count += flow.in_count
            row.stakes += flow.in_sum
        elif flow.entry_kind == WIN:
            row.win_count += flow.out_count
            row.wins += flow.out_sum
        elif flow.entry_kind == ROLLBACK:
            row.rolled_back += flow.out_sum
    return [play[provider] for provider in sorted(play)]


@dataclass(frozen=True)
class Clearing:
    provider: str
    ledger: int  # the clearing's balance in the ledger (every shard)
    transactions: int  # stakes − wins − refunds, as the seamless transactions add up

    @property
    def difference(self) -> int:
        return self.ledger - self.transactions


async def reconciliation(session: AsyncSession, *, currency: Currency) -> list[Clearing]:
    """Each provider's seamless clearing in ``currency`` now, by the ledger and by the record."""
    ledger = dict(await balances(session, kind=AccountKind.SEAMLESS_CLEARING, currency=currency))
    recorded = await clearing_by_transactions(session, currency=currency)
    return [
        Clearing(provider, ledger.get(provider, 0), recorded.get(provider, 0))
        for provider in sorted(set(ledger) | set(recorded))
    ]
