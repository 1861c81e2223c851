"""HTML of the sandbox aggregator's Hub88 game page: a slot, or a table game with a side bet,
and the fault switch. The page itself is the aggregator's shared one
(:mod:`pao.sandbox.seamless_page`); this module says what Hub88's round endpoint takes."""

from __future__ import annotations

from typing import Any

from pao.sandbox.seamless_page import BetField, game_page

_FAULTS = (
    ("none", "No fault"),
    ("timeout", "Time-out after Pao answered (rollback)"),
    ("duplicate", "Every call sent twice"),
    ("rollback_first", "Rollback overtakes the bet"),
    ("burst", "Ten bets at once"),
)

_SLOT = (BetField("stake", "Bet"),)
# The table: the main bet on the player and a side bet on a tie, in one round.
_TABLE = (
    BetField("stake", "Player"),
    BetField("side_stake", "Tie (side bet)", optional=True, default=0),
)

HUB88_PER_MINOR = 1000  # Hub88's amounts are 1/100000 of the currency


def play_page(
    *, game: str, table: bool, session: dict[str, Any], balance: int, lobby_url: str
) -> str:
    """``balance`` in Hub88's unit, as its Wallet API answered."""
    return game_page(
        game=game,
        table=table,
        bets=_TABLE if table else _SLOT,
        faults=_FAULTS,
        endpoint="/sandbox/hub88/play/round",
        ok_status="RS_OK",
        session=session,
        balance=balance // HUB88_PER_MINOR,
        lobby_url=lobby_url,
    )
