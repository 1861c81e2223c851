"""The provider health tracker's circuit (ADR 0013): closed → open on the failure rate over the
window, open → probing after the cooldown, probing → closed on an answer or open again on a
failure. The same rules in memory and in Redis (``PAO_TEST_REDIS_URL``), where two trackers,
as two processes would, share one view."""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator, Callable

import pytest

from pao.games.health import (
    BUCKET_SECONDS,
    CallOutcome,
    Circuit,
    HealthPolicy,
    HealthTracker,
    MemoryHealthTracker,
    RedisHealthTracker,
)
from tests.conftest import REDIS_URL

POLICY = HealthPolicy(window_seconds=60, min_calls=4, failure_rate=0.5, cooldown_seconds=30)
KINDS = ["memory", *(["redis"] if REDIS_URL else [])]


class FakeTime:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def now() -> FakeTime:
    return FakeTime()


@pytest.fixture(params=KINDS)
async def make(
    request: pytest.FixtureRequest, now: FakeTime
) -> AsyncIterator[Callable[[], HealthTracker]]:
    """Trackers sharing one store: in Redis one prefix, in memory the same instance."""
    made: list[HealthTracker] = []
    prefix = f"pao:test:{uuid.uuid4().hex}:"
    memory = MemoryHealthTracker(POLICY, now)

    def factory() -> HealthTracker:
        if request.param == "memory":
            return memory
        assert REDIS_URL
        tracker = RedisHealthTracker(REDIS_URL, POLICY, now, prefix=prefix)
        made.append(tracker)
        return tracker

    yield factory
    for tracker in made:
        await tracker.close()


async def circuit(tracker: HealthTracker, code: str = "JOKER") -> Circuit:
    return (await tracker.health([code]))[code].circuit


async def test_trips_on_the_failure_rate_and_recovers_through_a_probe(
    make: Callable[[], HealthTracker], now: FakeTime
) -> None:
    tracker, other_process = make(), make()
    await tracker.record("JOKER", CallOutcome.OK)
    await tracker.record("JOKER", CallOutcome.FAILED, error="HTTP_503")
    await tracker.record("JOKER", CallOutcome.TIMEOUT, error="TIMEOUT")
    # Three calls: under the minimum, however bad.
    assert await circuit(tracker) == Circuit.CLOSED
    await other_process.record("JOKER", CallOutcome.TIMEOUT, error="TIMEOUT")
    health = (await tracker.health(["JOKER"]))["JOKER"]
    assert health.circuit == Circuit.OPEN
    assert health.down
    assert (health.calls, health.failures, health.timeouts) == (4, 3, 2)
    assert health.failure_rate == 0.75
    assert health.last_error == "TIMEOUT"
    assert health.last_success_at is not None
    assert health.down_until is not None
    # Other providers are not affected.
    assert await circuit(tracker, "PG") == Circuit.CLOSED

    now.now += POLICY.cooldown_seconds - 1
    assert await circuit(other_process) == Circuit.OPEN
    now.now += 1
    assert await circuit(other_process) == Circuit.PROBING
    # A probe that fails: down for another cooldown at once (no minimum while probing).
    await tracker.record("JOKER", CallOutcome.FAILED, error="HTTP_503")
    assert await circuit(other_process) == Circuit.OPEN
    now.now += POLICY.cooldown_seconds
    # A probe that answers (a refusal is an answer) closes it with a fresh window.
    await other_process.record("JOKER", CallOutcome.REFUSED, error="NO_ACCOUNT")
    health = (await tracker.health(["JOKER"]))["JOKER"]
    assert health.circuit == Circuit.CLOSED
    assert (health.calls, health.failures) == (0, 0)
    await tracker.record("JOKER", CallOutcome.FAILED)
    assert await circuit(tracker) == Circuit.CLOSED


async def test_a_healthy_mix_stays_closed_and_old_failures_leave_the_window(
    make: Callable[[], HealthTracker], now: FakeTime
) -> None:
    tracker = make()
    for _ in range(3):
        await tracker.record("PG", CallOutcome.OK)
        await tracker.record("PG", CallOutcome.REFUSED)
    await tracker.record("PG", CallOutcome.FAILED)
    await tracker.record("PG", CallOutcome.FAILED)
    assert await circuit(tracker, "PG") == Circuit.CLOSED  # 2 of 8
    # A minute later those calls are out of the window: three failures of three are not
    # enough (minimum four), the fourth trips it.
    now.now += POLICY.window_seconds + BUCKET_SECONDS
    for _ in range(3):
        await tracker.record("PG", CallOutcome.TIMEOUT)
    health = (await tracker.health(["PG"]))["PG"]
    assert (health.calls, health.circuit) == (3, Circuit.CLOSED)
    await tracker.record("PG", CallOutcome.TIMEOUT)
    assert await circuit(tracker, "PG") == Circuit.OPEN


async def test_a_success_while_open_does_not_close_before_the_cooldown(
    make: Callable[[], HealthTracker], now: FakeTime
) -> None:
    """Calls still happen while open (the reconciler's): they count, but only a probe after
    the cooldown closes the circuit, so a flapping provider is not reopened to players."""
    tracker = make()
    for _ in range(4):
        await tracker.record("JOKER", CallOutcome.FAILED)
    await tracker.record("JOKER", CallOutcome.OK)
    assert await circuit(tracker) == Circuit.OPEN
    await tracker.reset("JOKER")
    assert await circuit(tracker) == Circuit.CLOSED


async def test_redis_trouble_never_breaks_a_call(now: FakeTime) -> None:
    tracker = RedisHealthTracker("redis://127.0.0.1:1/0", POLICY, now)
    try:
        await tracker.record("JOKER", CallOutcome.FAILED)  # logged, not raised
        assert await circuit(tracker) == Circuit.CLOSED
    finally:
        await tracker.close()


@pytest.mark.skipif(not REDIS_URL, reason="PAO_TEST_REDIS_URL not set")
async def test_redis_and_memory_trackers_agree_on_every_step(now: FakeTime) -> None:
    """The Redis tracker's scripts keep the memory tracker's books: the same calls, at the
    same times, give the same Health for every provider after every call (trips, probes,
    resets and calls leaving the window included)."""
    assert REDIS_URL
    memory = MemoryHealthTracker(POLICY, now)
    redis = RedisHealthTracker(REDIS_URL, POLICY, now, prefix=f"pao:test:{uuid.uuid4().hex}:")
    codes = ["JOKER", "PG", "SEXY"]
    outcomes = list(CallOutcome)
    rng = random.Random(19)
    seen: set[Circuit] = set()
    try:
        for step in range(300):
            now.now += rng.choice([0, 0, 0.5, 3, 9, 17, 41])
            code = rng.choice(codes)
            if step % 97 == 96:
                for tracker in (memory, redis):
                    await tracker.reset(code)
            else:
                outcome = rng.choice(outcomes)
                error = None if outcome.healthy else f"E{rng.randrange(3)}"
                for tracker in (memory, redis):
                    await tracker.record(code, outcome, error=error)
            expected = await memory.health(codes)
            assert await redis.health(codes) == expected, step
            seen.update(h.circuit for h in expected.values())
    finally:
        await redis.close()
    assert seen == set(Circuit)  # the sequence went through every state


@pytest.mark.skipif(not REDIS_URL, reason="PAO_TEST_REDIS_URL not set")
async def test_redis_scripts_are_loaded_again_when_redis_has_lost_them(now: FakeTime) -> None:
    """EVALSHA of a script Redis does not know (a restarted or flushed Redis) loads it and
    runs it: the calls are still counted."""
    assert REDIS_URL
    tracker = RedisHealthTracker(REDIS_URL, POLICY, now, prefix=f"pao:test:{uuid.uuid4().hex}:")
    try:
        # An unknown digest stands for a script Redis lost (SCRIPT FLUSH would hit everyone's).
        tracker._add_script.sha = tracker._read_script.sha = "0" * 40
        await tracker.record("JOKER", CallOutcome.TIMEOUT, error="TIMEOUT")
        health = (await tracker.health(["JOKER"]))["JOKER"]
        assert (health.calls, health.failures, health.timeouts) == (1, 1, 1)
        assert tracker._add_script.sha != "0" * 40
    finally:
        await tracker.close()
