"""The wheel editor's arithmetic: each slice's probability is weight / total, exactly, and the
expected payout per spin is Σ probability × credit prize, item prizes listed apart."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pao.promotions.models import PrizeType
from pao.promotions.wheel_editor import Prize, wheel_odds


def test_probabilities_and_expected_payout() -> None:
    odds = wheel_odds(
        [
            Prize("A", 1, PrizeType.CREDIT, 10_00),
            Prize("B", 2, PrizeType.NONE, 0),
            Prize("C", 3, PrizeType.CREDIT, 1_00),
            Prize("D", 0, PrizeType.CREDIT, 1_000_00),  # never drawn: counts for nothing
            Prize("E", 6, PrizeType.ITEM, 500_00),  # not money: listed apart
        ]
    )
    assert odds.total_weight == 12
    assert odds.probability == {
        "A": Fraction(1, 12),
        "B": Fraction(1, 6),
        "C": Fraction(1, 4),
        "D": Fraction(0),
        "E": Fraction(1, 2),
    }
    # (1 × 1000 + 3 × 100) / 12 satang = 108.33… satang per spin.
    assert odds.expected_payout == Fraction(1300, 12)
    assert odds.item_prizes == [("E", Fraction(1, 2))]


def test_zero_total_gives_zero_odds() -> None:
    odds = wheel_odds([Prize("A", 0, PrizeType.CREDIT, 5_00)])
    assert odds.probability == {"A": Fraction(0)}
    assert odds.expected_payout == 0


@settings(deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1000), st.sampled_from(list(PrizeType)), st.integers(0, 10**6)),
        min_size=1,
        max_size=16,
    )
)
def test_probabilities_sum_to_one_and_payout_is_bounded(
    rows: list[tuple[int, PrizeType, int]],
) -> None:
    prizes = [Prize(str(i), w, t, a) for i, (w, t, a) in enumerate(rows)]
    odds = wheel_odds(prizes)
    total = sum(odds.probability.values())
    assert total == (1 if odds.total_weight > 0 else 0)
    credits = [p.prize_amount for p in prizes if p.prize_type == PrizeType.CREDIT and p.weight]
    assert 0 <= odds.expected_payout <= max(credits, default=0)
