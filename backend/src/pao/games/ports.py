"""What games needs from the domains above it, declared here so that it never imports them
(imports point downward; :mod:`pao.kit.ports`). Promotions plugs it in
(``pao.promotions.wiring.install``):

* :data:`TRANSFER_GATE`: may this transfer start? (not back to the wallet while a bonus is
  active: ``BONUS_REMAINING``). Asked by every transfer leg, in its first transaction, before
  any hold: as a statement of its own by the steps, as an argument of the request's one
  statement on PostgreSQL (:mod:`pao.games.transfer_statement`).

No default: an unplugged gate would let money out of a game that a bonus keeps there; it
refuses instead, and the app does not start.
"""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy import ColumnElement
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import AppError
from pao.kit.ports import Port


class TransferGate(Protocol):
    async def __call__(
        self, session: AsyncSession, *, member_id: int, source: str, destination: str, amount: int
    ) -> None:
        """Return when the member may move ``amount`` from ``source`` to ``destination`` (a
        game code or ``WALLET``, as the member wrote them); raise :meth:`refusal` if not."""
        ...

    def refuses(
        self, member_id: ColumnElement[Any], *, source: str, destination: str
    ) -> ColumnElement[bool]:
        """Whether the gate would refuse the move for ``member_id`` (a column or scalar
        subquery of the enclosing statement), as an expression of that statement."""
        ...

    def refusal(self) -> AppError:
        """The refusal (a 4xx error) of a move the gate stops."""
        ...


TRANSFER_GATE: Port[TransferGate] = Port("games.transfer_gate")
