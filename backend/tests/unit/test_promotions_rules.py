"""The arithmetic of promotions (pao.promotions.rules), including period boundaries in the
operator's time zone and the statistics of the wheel's weighted choice."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from pao.promotions import rules

BKK = "Asia/Bangkok"  # UTC+7, no daylight saving


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


# ── periods ─────────────────────────────────────────────────────────────────────────────


def test_day_starts_at_bangkok_midnight() -> None:
    # 2026-11-21 16:59 UTC is 23:59 in Bangkok: the Bangkok day began 2026-11-20 17:00 UTC.
    assert rules.period_start(utc(2026, 11, 21, 16, 59), period="day", timezone=BKK) == utc(
        2026, 11, 20, 17
    )
    # One minute later it is already the next Bangkok day.
    assert rules.period_start(utc(2026, 11, 21, 17, 0), period="day", timezone=BKK) == utc(
        2026, 11, 21, 17
    )


def test_week_starts_on_monday_bangkok_midnight() -> None:
    # Sunday 2026-11-22 23:30 Bangkok (16:30 UTC) still belongs to the week of Mon 16 Nov.
    assert rules.period_start(utc(2026, 11, 22, 16, 30), period="week", timezone=BKK) == utc(
        2026, 11, 15, 17
    )
    # Monday 2026-11-23 00:00 Bangkok (Sun 17:00 UTC) starts a new week.
    assert rules.period_start(utc(2026, 11, 22, 17, 0), period="week", timezone=BKK) == utc(
        2026, 11, 22, 17
    )


def test_limit_has_no_period() -> None:
    assert rules.period_start(utc(2026, 1, 1), period="limit", timezone=BKK) is None


def test_other_time_zone_moves_the_boundary() -> None:
    assert rules.period_start(utc(2026, 11, 21, 3), period="day", timezone="UTC") == utc(
        2026, 11, 21
    )


def test_count_in_period_day_week_limit() -> None:
    now = utc(2026, 11, 21, 18)  # Sat 01:00 Bangkok on 22 Nov
    received = [
        utc(2026, 11, 21, 17, 30),  # today in Bangkok (22 Nov 00:30)
        utc(2026, 11, 21, 16, 30),  # yesterday in Bangkok (21 Nov 23:30), same week
        utc(2026, 11, 15, 16, 59),  # previous week (Sun 15 Nov 23:59 Bangkok)
    ]
    assert rules.count_in_period(received, now=now, period="day", timezone=BKK) == 1
    assert rules.count_in_period(received, now=now, period="week", timezone=BKK) == 2
    assert rules.count_in_period(received, now=now, period="limit", timezone=BKK) == 3


# ── bonus amounts and conditions ────────────────────────────────────────────────────────


def test_bonus_amount_percent_fixed_and_cap() -> None:
    assert rules.bonus_amount(deposit=300_00, percent=100, fixed_amount=0, max_amount=500_00) == (
        300_00
    )
    assert rules.bonus_amount(deposit=900_00, percent=100, fixed_amount=0, max_amount=500_00) == (
        500_00
    )
    # Rounded down to the satang.
    assert rules.bonus_amount(deposit=333, percent=10, fixed_amount=0, max_amount=10**9) == 33
    assert rules.bonus_amount(deposit=0, percent=0, fixed_amount=50_00, max_amount=50_00) == 50_00
    assert rules.bonus_amount(deposit=0, percent=0, fixed_amount=80_00, max_amount=50_00) == 50_00


def test_turnover_required_and_met() -> None:
    required = rules.turnover_required(deposit=100_00, bonus=100_00, multiplier=5)
    assert required == 1_000_00
    assert not rules.turnover_met(turnover=999_99, required=required)
    assert rules.turnover_met(turnover=1_000_00, required=required)


def test_percent_fail_is_strictly_below() -> None:
    # base 200 THB, 10 % → the bonus can end once the balance is below 20 THB.
    kwargs = {"deposit": 100_00, "bonus": 100_00, "percent_fail": 10}
    assert not rules.percent_fail_reached(balance=20_00, **kwargs)
    assert rules.percent_fail_reached(balance=19_99, **kwargs)
    assert not rules.percent_fail_reached(balance=0, deposit=0, bonus=0, percent_fail=10)


# ── invite, refund, coins ───────────────────────────────────────────────────────────────


def test_invite_income_rate_minimum_and_cap() -> None:
    common = {"rate_bp": 500, "min_deposit": 100_00, "cap_per_invitee": 500_00}
    assert rules.invite_income(deposit=99_99, earned_so_far=0, **common) == 0
    assert rules.invite_income(deposit=1_000_00, earned_so_far=0, **common) == 50_00
    assert rules.invite_income(deposit=1_000_00, earned_so_far=480_00, **common) == 20_00
    assert rules.invite_income(deposit=1_000_00, earned_so_far=500_00, **common) == 0


def test_refund_receivable_and_cap() -> None:
    assert (
        rules.refund_receivable(
            net_loss=1_000_00, rate_bp=500, max_per_period=5_000_00, received_in_period=0
        )
        == 50_00
    )
    assert (
        rules.refund_receivable(
            net_loss=1_000_00, rate_bp=500, max_per_period=5_000_00, received_in_period=30_00
        )
        == 20_00
    )
    assert (
        rules.refund_receivable(
            net_loss=-5_00, rate_bp=500, max_per_period=5_000_00, received_in_period=0
        )
        == 0
    )
    assert (
        rules.refund_receivable(
            net_loss=10**9, rate_bp=500, max_per_period=100_00, received_in_period=0
        )
        == 100_00
    )
    assert rules.refund_over_cap(net_loss=10_000_00, rate_bp=500, max_per_period=100_00) == 400_00


def test_coins_for_deposit() -> None:
    assert rules.coins_for_deposit(amount=99_99, per_coin=100_00) == 0
    assert rules.coins_for_deposit(amount=350_00, per_coin=100_00) == 3
    assert rules.coins_for_deposit(amount=350_00, per_coin=0) == 0


# ── the wheel's weighted choice ─────────────────────────────────────────────────────────

WEIGHTS = [rules.Weighted(1, 30), rules.Weighted(2, 30), rules.Weighted(3, 15),
           rules.Weighted(4, 14), rules.Weighted(5, 8), rules.Weighted(6, 2),
           rules.Weighted(7, 1), rules.Weighted(8, 0)]  # fmt: skip
DRAWS = 20_000


def test_choose_maps_every_draw_to_its_slice() -> None:
    # Exhaustive: each value of randbelow(total) picks exactly the slice its weight covers.
    total = sum(w.weight for w in WEIGHTS)

    def fixed(value: int) -> Callable[[int], int]:
        return lambda _n: value

    picks = Counter(rules.choose(WEIGHTS, randbelow=fixed(v)) for v in range(total))
    assert picks == {w.key: w.weight for w in WEIGHTS if w.weight}


def test_choose_refuses_no_weight() -> None:
    with pytest.raises(ValueError, match="positive weight"):
        rules.choose([rules.Weighted(1, 0)])


def _chi_square_sf_even(statistic: float, df: int) -> float:
    """P(X ≥ statistic) for a chi-square X with an even ``df`` (closed form)."""
    assert df % 2 == 0
    half = statistic / 2
    return math.exp(-half) * sum(half**i / math.factorial(i) for i in range(df // 2))


def _chi_square_p(counts: Counter[int]) -> float:
    positive = [w for w in WEIGHTS if w.weight > 0]
    total = sum(w.weight for w in positive)
    statistic = sum(
        (counts[w.key] - DRAWS * w.weight / total) ** 2 / (DRAWS * w.weight / total)
        for w in positive
    )
    return _chi_square_sf_even(statistic, len(positive) - 1)


def test_chi_square_tail_matches_tables() -> None:
    # df = 6: the 0.05 and 0.001 critical values are 12.592 and 22.458.
    assert _chi_square_sf_even(12.592, 6) == pytest.approx(0.05, abs=1e-4)
    assert _chi_square_sf_even(22.458, 6) == pytest.approx(0.001, abs=1e-5)


def test_a_biased_choice_is_detected() -> None:
    # The test has power: a wheel that ignores the weights fails it.
    source = random.Random(1)
    counts = Counter(WEIGHTS[source.randrange(7)].key for _ in range(DRAWS))
    assert _chi_square_p(counts) < 1e-6


def test_outcomes_follow_weights_seeded() -> None:
    source = random.Random(20261121)
    counts = Counter(rules.choose(WEIGHTS, randbelow=source.randrange) for _ in range(DRAWS))
    assert counts[8] == 0
    # Deterministic (fixed seed); the threshold is generous.
    assert _chi_square_p(counts) > 0.001


def test_outcomes_follow_weights_with_secrets() -> None:
    counts = Counter(rules.choose(WEIGHTS) for _ in range(DRAWS))
    assert counts[8] == 0
    # p < 1e-6 for a correct generator happens once in a million runs: never flaky in practice.
    assert _chi_square_p(counts) > 1e-6


def test_odds_are_exact_fractions() -> None:
    odds = rules.odds(WEIGHTS)
    assert odds[1] == Fraction(30, 100)
    assert odds[7] == Fraction(1, 100)
    assert odds[8] == 0
    assert sum(odds.values()) == 1


def test_period_start_is_tz_aware() -> None:
    start = rules.period_start(utc(2026, 6, 1) + timedelta(hours=5), period="day", timezone=BKK)
    assert start is not None
    assert start.tzinfo is not None
