"""The sandbox slot's pay table."""

from __future__ import annotations

import pytest

from pao.sandbox.games.service import payout_for


@pytest.mark.parametrize(
    ("reels", "bet", "payout"),
    [
        (["SEVEN", "SEVEN", "SEVEN"], 100, 5000),
        (["CHERRY", "CHERRY", "CHERRY"], 500, 2500),
        (["BELL", "BELL", "STAR"], 100, 50),
        (["BELL", "STAR", "LEMON"], 100, 0),
    ],
)
def test_pay_table(reels: list[str], bet: int, payout: int) -> None:
    assert payout_for(reels, bet) == payout
