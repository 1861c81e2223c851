"""What an active bonus forbids. Wallet (withdrawals) and games (transfers) ask here before
moving money; the promotions domain owns the rules (docs/domain/promotions.md):

* while a bonus is ACTIVE, no withdrawal: the member ends the bonus first
  (``GET /api/bonus/clear``: turnover met, or balance under percentFail);
* while a bonus is ACTIVE, money may go into games (that is how the turnover is played) but
  not back to the wallet: ``destination`` ``"wallet"`` (any case) is refused.

Both raise ``BONUS_REMAINING``. Wallet and games do not import this module (it sits above
them): they call their ports (``pao.wallet.ports.WITHDRAWAL_GATE``,
``pao.games.ports.TRANSFER_GATE``), into which ``pao.promotions.wiring`` plugs these two.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, false
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import AppError
from pao.promotions.common import active_bonus_exists, has_active_bonus
from pao.promotions.exceptions import BonusRemaining

WALLET = "wallet"


class BonusGateOnWithdrawals:
    """The withdrawal gate (``pao.wallet.ports.WithdrawalGate``): ``BONUS_REMAINING`` while
    the member has an active bonus, asked as a statement or inside the wallet's own."""

    async def check(self, session: AsyncSession, *, member_id: int) -> None:
        if await has_active_bonus(session, member_id=member_id):
            raise BonusRemaining()

    def refuses(self, member_id: ColumnElement[Any]) -> ColumnElement[bool]:
        return active_bonus_exists(member_id)

    def refusal(self) -> AppError:
        return BonusRemaining()


BONUS_GATE_ON_WITHDRAWALS = BonusGateOnWithdrawals()


class BonusGateOnTransfers:
    """The transfer gate (``pao.games.ports.TransferGate``): ``BONUS_REMAINING`` for a
    transfer into the wallet while a bonus is active, asked as a statement or inside the
    games' own."""

    async def __call__(
        self, session: AsyncSession, *, member_id: int, source: str, destination: str, amount: int
    ) -> None:
        if _into_wallet(destination) and await has_active_bonus(session, member_id=member_id):
            raise BonusRemaining()

    def refuses(
        self, member_id: ColumnElement[Any], *, source: str, destination: str
    ) -> ColumnElement[bool]:
        return active_bonus_exists(member_id) if _into_wallet(destination) else false()

    def refusal(self) -> AppError:
        return BonusRemaining()


def _into_wallet(destination: str) -> bool:
    return destination.strip().lower() == WALLET


# One instance each: the statements that ask a gate are built once per plugged-in gate.
BONUS_GATE_ON_TRANSFERS = BonusGateOnTransfers()
