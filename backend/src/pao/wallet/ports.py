"""What the wallet needs from the domains above it, declared here so that it never imports
them (imports point downward; :mod:`pao.kit.ports`). Promotions plugs both in
(``pao.promotions.wiring.install``):

* :data:`WITHDRAWAL_GATE`: may the member withdraw now? (no while a bonus is active:
  ``BONUS_REMAINING``). Asked by every withdrawal request, before the hold: as a statement of
  its own by the steps, as a column of the request's one statement on PostgreSQL
  (:mod:`pao.wallet.withdrawal_statement`);
* :data:`INVITE_SUMMARY`: the member's invite income for the wallet screen, as columns of its
  one statement (:mod:`pao.wallet.screen`).

Neither has a default: an unplugged gate would let a withdrawal through that a bonus forbids,
and an unplugged summary would show the member no invite income; either refuses instead, and
the app does not start.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import ColumnElement, Label
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import AppError
from pao.kit.ports import Port


class WithdrawalGate(Protocol):
    async def check(self, session: AsyncSession, *, member_id: int) -> None:
        """Return when ``member_id`` may withdraw; raise :meth:`refusal` if not."""
        ...

    def refuses(self, member_id: ColumnElement[Any]) -> ColumnElement[bool]:
        """Whether :meth:`check` would refuse ``member_id`` (a column or scalar subquery of
        the enclosing statement), as an expression of that statement."""
        ...

    def refusal(self) -> AppError:
        """The refusal (a 4xx error) of a member the gate stops."""
        ...


@dataclass(frozen=True)
class InviteFigures:
    """``amount``: invite income waiting to be collected; ``success`` / ``fail``: invitees who
    earned the inviter income / who have not (yet) made a qualifying deposit
    (docs/domain/promotions.md)."""

    amount: int
    success: int
    fail: int


class InviteSummaryQuery(Protocol):
    def columns(self, member_id: ColumnElement[Any]) -> Sequence[Label[Any]]:
        """The summary of ``member_id`` (a column of the enclosing statement) as labelled
        scalar subqueries, so that the wallet screen stays one statement."""
        ...

    def figures(self, row: Any) -> InviteFigures:
        """The figures from a row that carries :meth:`columns` under their labels."""
        ...


WITHDRAWAL_GATE: Port[WithdrawalGate] = Port("wallet.withdrawal_gate")
INVITE_SUMMARY: Port[InviteSummaryQuery] = Port("wallet.invite_summary")
