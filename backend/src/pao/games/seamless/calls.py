"""What a seamless callback is and what it answers, in Pao's terms, whatever the dialect: the
:class:`Move` a dialect maps its call to, and the :class:`Outcome` (a :class:`Status` and the
balance) it maps back to its own codes. Shared by the core's steps
(:mod:`pao.games.seamless.core`) and its one-statement function
(:mod:`pao.games.seamless.function`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pao.kit.money import Currency


class Status(StrEnum):
    OK = "ok"
    NOT_ENOUGH_MONEY = "not_enough_money"
    DUPLICATE = "duplicate"  # a known transaction id with different data
    UNKNOWN_BET = "unknown_bet"  # a win or rollback whose bet Pao never took
    ROLLED_BACK = "rolled_back"  # the bet was rolled back (a late bet, a win on it, again)
    SETTLED = "settled"  # a rollback of a bet that a win has settled
    USER_DISABLED = "user_disabled"
    LIMIT_REACHED = "limit_reached"  # the member's own loss limit (player protection)
    WRONG_CURRENCY = "wrong_currency"
    UNKNOWN_USER = "unknown_user"


@dataclass(frozen=True)
class Outcome:
    status: Status
    currency: Currency
    balance: int  # minor units: the wallet after the call (as it stands when refused)
    before: int  # minor units: the wallet before the call
    # A call already processed, answered again (a dialect may have its own code for it).
    replayed: bool = False
    # A refusal that wrote its record (player protection's hit): committed all the same.
    kept: bool = False

    @property
    def ok(self) -> bool:
        return self.status is Status.OK


@dataclass(frozen=True)
class Move:
    """One provider transaction, in Pao's terms (minor units, Pao's member id)."""

    provider: str
    txn_id: str
    member_id: int
    currency: Currency
    round_id: str
    game_code: str
    amount: int = 0  # a rollback's comes from its bet
    reference_id: str | None = None
    round_closed: bool = False
