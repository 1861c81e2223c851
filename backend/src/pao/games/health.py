"""Provider health: a circuit breaker per game provider, fed by every provider call (ADR 0013).

Every call's outcome goes through :func:`record_call` (the one place; a metrics counter can be
added there). The tracker counts calls, failures and time-outs in fixed buckets over a sliding
window and moves each provider through::

    CLOSED ──failure rate ≥ threshold over the window (≥ min calls)──► OPEN (down)
    OPEN   ──cooldown elapsed──► PROBING (calls go through again; they are the probes)
    PROBING ──a call answers──► CLOSED (window cleared)
    PROBING ──a call fails or times out──► OPEN (another cooldown)

A refusal (4xx) is an answer: the provider is up. While OPEN the player cannot start a
transfer to or from the provider, launch it or open an account there, and balance refreshes
skip it (the last known balance is shown); transfers already in flight are still driven by the
reconciler, whose calls keep feeding the tracker.

State lives in memory for one process, or in Redis (``PAO_REDIS_URL``) so that N processes
share one view. Redis trouble never breaks a provider call: the tracker then reports the
provider healthy and logs.
"""

from __future__ import annotations

import asyncio
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError

from pao.core import metrics
from pao.core.settings import Settings

log = structlog.get_logger(__name__)

BUCKET_SECONDS = 10


class CallOutcome(StrEnum):
    OK = "ok"  # an answer
    REFUSED = "refused"  # a definite no (4xx): the provider is up
    FAILED = "failed"  # 5xx, a broken connection, a body we cannot read
    TIMEOUT = "timeout"  # no answer in time

    @property
    def healthy(self) -> bool:
        return self in (CallOutcome.OK, CallOutcome.REFUSED)


class Circuit(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    PROBING = "probing"


@dataclass(frozen=True)
class HealthPolicy:
    window_seconds: int = 60
    min_calls: int = 5
    failure_rate: float = 0.5
    cooldown_seconds: float = 30.0

    @classmethod
    def of(cls, settings: Settings) -> HealthPolicy:
        return cls(
            window_seconds=settings.provider_health_window_seconds,
            min_calls=settings.provider_health_min_calls,
            failure_rate=settings.provider_health_failure_rate,
            cooldown_seconds=settings.provider_health_cooldown_seconds,
        )

    @property
    def buckets(self) -> int:
        return max(1, -(-self.window_seconds // BUCKET_SECONDS))


def _at(epoch: float | None) -> datetime | None:
    return datetime.fromtimestamp(epoch, UTC) if epoch is not None else None


@dataclass(frozen=True)
class Health:
    """What the tracker knows of one provider (its window's counts and its circuit)."""

    code: str
    circuit: Circuit = Circuit.CLOSED
    calls: int = 0
    failures: int = 0  # time-outs included
    timeouts: int = 0
    last_success_at: datetime | None = None
    last_failure_at: datetime | None = None
    last_error: str | None = None
    down_until: datetime | None = None  # OPEN: when the probes start

    @property
    def down(self) -> bool:
        return self.circuit == Circuit.OPEN

    @property
    def failure_rate(self) -> float:
        return self.failures / self.calls if self.calls else 0.0


@dataclass
class _Raw:
    """A provider's stored state, as both stores read it."""

    opened_until: float | None = None
    calls: int = 0
    failures: int = 0
    timeouts: int = 0
    last_ok: float | None = None
    last_fail: float | None = None
    last_error: str | None = None

    def circuit(self, now: float) -> Circuit:
        if self.opened_until is None:
            return Circuit.CLOSED
        return Circuit.OPEN if now < self.opened_until else Circuit.PROBING

    def health(self, code: str, now: float) -> Health:
        circuit = self.circuit(now)
        return Health(
            code=code,
            circuit=circuit,
            calls=self.calls,
            failures=self.failures,
            timeouts=self.timeouts,
            last_success_at=_at(self.last_ok),
            last_failure_at=_at(self.last_fail),
            last_error=self.last_error,
            down_until=_at(self.opened_until) if circuit == Circuit.OPEN else None,
        )


class HealthTracker(ABC):
    """The breaker's rules; the stores (:class:`MemoryHealthTracker`,
    :class:`RedisHealthTracker`) only keep counters and the circuit."""

    def __init__(self, policy: HealthPolicy, clock: Callable[[], float] = time.time) -> None:
        self.policy = policy
        self.clock = clock
        # Bumped when this process opens or closes a circuit: pao.games.availability's cache
        # re-reads at once (other processes' changes reach it within its bound).
        self.changes = 0

    def _buckets(self, now: float) -> list[int]:
        last = int(now // BUCKET_SECONDS)
        return list(range(last - self.policy.buckets + 1, last + 1))

    async def record(self, code: str, outcome: CallOutcome, *, error: str | None = None) -> None:
        now = self.clock()
        try:
            raw = await self._add(code, outcome, now, error)
            circuit = raw.circuit(now)
            if outcome.healthy:
                if circuit == Circuit.PROBING:
                    await self._close(code, self._buckets(now))
                    self.changes += 1
                    log.info("provider up again", provider=code)
                return
            trips = circuit == Circuit.PROBING or (
                circuit == Circuit.CLOSED
                and raw.calls >= self.policy.min_calls
                and raw.failures >= self.policy.failure_rate * raw.calls
            )
            if trips:
                await self._open(code, now + self.policy.cooldown_seconds)
                self.changes += 1
                log.warning(
                    "provider marked down",
                    provider=code,
                    calls=raw.calls,
                    failures=raw.failures,
                    probing=circuit == Circuit.PROBING,
                )
        except RedisError as exc:
            log.warning("provider health not recorded", provider=code, reason=str(exc))

    async def health(self, codes: Iterable[str]) -> dict[str, Health]:
        now = self.clock()
        codes = list(codes)
        try:
            raws = await self._read(codes, now)
        except RedisError as exc:
            log.warning("provider health unavailable", reason=str(exc))
            raws = {code: _Raw() for code in codes}
        return {code: raws[code].health(code, now) for code in codes}

    async def reset(self, code: str) -> None:
        """Forget what is known of ``code`` (tests, and an operator who knows better)."""
        await self._close(code, self._buckets(self.clock()))
        self.changes += 1

    @abstractmethod
    async def _add(self, code: str, outcome: CallOutcome, now: float, error: str | None) -> _Raw:
        """Count the call; the provider's state after it (window totals included)."""

    @abstractmethod
    async def _read(self, codes: list[str], now: float) -> dict[str, _Raw]: ...

    @abstractmethod
    async def _open(self, code: str, until: float) -> None: ...

    @abstractmethod
    async def _close(self, code: str, buckets: list[int]) -> None:
        """Close the circuit and clear the window (a fresh start after recovery)."""

    async def close(self) -> None:
        return None


@dataclass
class _Memory:
    raw: _Raw = field(default_factory=_Raw)
    # bucket → [calls, failures, timeouts]
    buckets: dict[int, list[int]] = field(default_factory=dict)


class MemoryHealthTracker(HealthTracker):
    """One process's view (no Redis configured)."""

    def __init__(self, policy: HealthPolicy, clock: Callable[[], float] = time.time) -> None:
        super().__init__(policy, clock)
        self._state: dict[str, _Memory] = {}

    def _totals(self, code: str, now: float) -> _Raw:
        entry = self._state.setdefault(code, _Memory())
        window = self._buckets(now)
        for old in [b for b in entry.buckets if b < window[0]]:
            del entry.buckets[old]
        counts = [entry.buckets.get(b, [0, 0, 0]) for b in window]
        raw = entry.raw
        raw.calls, raw.failures, raw.timeouts = (sum(c[i] for c in counts) for i in range(3))
        return _Raw(**vars(raw))

    async def _add(self, code: str, outcome: CallOutcome, now: float, error: str | None) -> _Raw:
        entry = self._state.setdefault(code, _Memory())
        counts = entry.buckets.setdefault(self._buckets(now)[-1], [0, 0, 0])
        counts[0] += 1
        if outcome.healthy:
            entry.raw.last_ok = now
        else:
            counts[1] += 1
            counts[2] += outcome == CallOutcome.TIMEOUT
            entry.raw.last_fail, entry.raw.last_error = now, error
        return self._totals(code, now)

    async def _read(self, codes: list[str], now: float) -> dict[str, _Raw]:
        return {code: self._totals(code, now) for code in codes}

    async def _open(self, code: str, until: float) -> None:
        self._state.setdefault(code, _Memory()).raw.opened_until = until

    async def _close(self, code: str, buckets: list[int]) -> None:
        entry = self._state.setdefault(code, _Memory())
        entry.raw.opened_until = None
        entry.buckets.clear()


# The read both scripts share: a provider's state and its window's totals, appended to ``out``
# as the 7 values ``_raw_of`` takes. KEYS[s] is its state hash, KEYS[s+1 .. s+n] its buckets.
_LUA_TOTALS = """
local function totals(s, n, out)
  local state = redis.call('HMGET', KEYS[s], 'opened_until', 'last_ok', 'last_fail', 'last_error')
  local c, f, t = 0, 0, 0
  for i = s + 1, s + n do
    local b = redis.call('HMGET', KEYS[i], 'c', 'f', 't')
    c = c + (tonumber(b[1]) or 0)
    f = f + (tonumber(b[2]) or 0)
    t = t + (tonumber(b[3]) or 0)
  end
  local k = #out
  out[k + 1], out[k + 2], out[k + 3], out[k + 4] = state[1], state[2], state[3], state[4]
  out[k + 5], out[k + 6], out[k + 7] = c, f, t
end
"""

# One call counted, then the provider's state as _LUA_TOTALS gives it. KEYS: the state hash,
# then the window's buckets, oldest first (the last is the current one). ARGV: healthy (1|0),
# time-out (1|0), now, the error, the current bucket's time to live.
_LUA_ADD = (
    _LUA_TOTALS
    + """
local current = KEYS[#KEYS]
redis.call('HINCRBY', current, 'c', 1)
if ARGV[1] == '1' then
  redis.call('HSET', KEYS[1], 'last_ok', ARGV[3])
else
  redis.call('HINCRBY', current, 'f', 1)
  if ARGV[2] == '1' then
    redis.call('HINCRBY', current, 't', 1)
  end
  redis.call('HSET', KEYS[1], 'last_fail', ARGV[3], 'last_error', ARGV[4])
end
redis.call('EXPIRE', current, ARGV[5])
local out = {}
totals(1, #KEYS - 1, out)
return out
"""
)

# Every provider's state at once. KEYS: per provider its state hash then its ARGV[1] buckets.
_LUA_READ = (
    _LUA_TOTALS
    + """
local n = tonumber(ARGV[1])
local out = {}
for s = 1, #KEYS, n + 1 do
  totals(s, n, out)
end
return out
"""
)


class RedisHealthTracker(HealthTracker):
    """Shared by every process on the same Redis: one hash of counters per provider and
    bucket (expiring after the window), one hash for the circuit and the last outcomes.

    A call is counted and its provider's window read back by one Lua script (one round trip,
    one reply, instead of ≈ 9 commands and their replies), and ``health()`` reads every
    provider's window by another; the circuit's rules stay in :class:`HealthTracker`. The
    scripts run by EVALSHA; redis-py loads them again on NOSCRIPT (a restarted Redis).

    Two processes may trip (or close) the same circuit at once; both write about the same
    value, so the race is harmless."""

    def __init__(
        self,
        url: str,
        policy: HealthPolicy,
        clock: Callable[[], float] = time.time,
        prefix: str = "pao:ph:",
    ) -> None:
        super().__init__(policy, clock)
        # Short socket time-outs: health bookkeeping must not slow a provider call down.
        self._redis: Redis = Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        self._prefix = prefix
        self._add_script = self._redis.register_script(_LUA_ADD)
        self._read_script = self._redis.register_script(_LUA_READ)

    def _state_key(self, code: str) -> str:
        return f"{self._prefix}{code}"

    def _bucket_key(self, code: str, bucket: int) -> str:
        return f"{self._prefix}{code}:b:{bucket}"

    def _window_keys(self, code: str, now: float) -> list[str]:
        """The state hash, then the window's buckets oldest first (the scripts' KEYS)."""
        return [self._state_key(code), *(self._bucket_key(code, b) for b in self._buckets(now))]

    @staticmethod
    def _float(value: Any) -> float | None:
        return float(value) if value is not None else None

    def _raw(self, reply: list[Any]) -> _Raw:
        """A provider's 7 values as the scripts return them (``_LUA_TOTALS``)."""
        opened, last_ok, last_fail, last_error, calls, failures, timeouts = reply
        return _Raw(
            opened_until=self._float(opened),
            calls=int(calls),
            failures=int(failures),
            timeouts=int(timeouts),
            last_ok=self._float(last_ok),
            last_fail=self._float(last_fail),
            last_error=last_error.decode() if isinstance(last_error, bytes) else last_error,
        )

    async def _add(self, code: str, outcome: CallOutcome, now: float, error: str | None) -> _Raw:
        reply = await self._add_script(
            keys=self._window_keys(code, now),
            args=[
                1 if outcome.healthy else 0,
                1 if outcome == CallOutcome.TIMEOUT else 0,
                repr(now),
                (error or "")[:80],
                self.policy.window_seconds + 2 * BUCKET_SECONDS,
            ],
        )
        return self._raw(reply)

    async def _read(self, codes: list[str], now: float) -> dict[str, _Raw]:
        if not codes:
            return {}
        keys = [key for code in codes for key in self._window_keys(code, now)]
        reply = await self._read_script(keys=keys, args=[self.policy.buckets])
        return {code: self._raw(reply[i * 7 : i * 7 + 7]) for i, code in enumerate(codes)}

    async def _open(self, code: str, until: float) -> None:
        await self._redis.hset(self._state_key(code), "opened_until", repr(until))

    async def _close(self, code: str, buckets: list[int]) -> None:
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hdel(self._state_key(code), "opened_until")
            pipe.delete(*(self._bucket_key(code, b) for b in buckets))
            await pipe.execute()

    async def close(self) -> None:
        await self._redis.aclose()


def create_health_tracker(settings: Settings) -> HealthTracker:
    policy = HealthPolicy.of(settings)
    if settings.redis_url:
        return RedisHealthTracker(settings.redis_url, policy)
    return MemoryHealthTracker(policy)


def tracker_of(app: Any) -> HealthTracker:
    """The app's tracker, made on first use (an app built without :func:`pao.games.router.
    register`, as some tests do, still gets one)."""
    tracker: HealthTracker | None = getattr(app.state, "provider_health", None)
    if tracker is None:
        tracker = app.state.provider_health = create_health_tracker(app.state.settings)
    return tracker


async def record_call(
    app: Any,
    *,
    code: str,
    operation: str,
    outcome: CallOutcome,
    seconds: float,
    error: str | None = None,
) -> None:
    """Where every provider call's outcome is recorded (:class:`pao.games.providers.observed.
    ObservedProvider` calls it): the health tracker, the log, and the hook for call metrics
    (per provider, operation and outcome, with the duration)."""
    # The metrics' outcome names are those of every third party: a failed call is an "error".
    label = "error" if outcome is CallOutcome.FAILED else str(outcome)
    metrics.count_provider_call(code, operation, label, seconds)
    if not outcome.healthy:
        log.info(
            "provider call failed",
            provider=code,
            operation=operation,
            outcome=str(outcome),
            seconds=round(seconds, 3),
            reason=error,
        )
    await tracker_of(app).record(code, outcome, error=error)


async def shielded_record(app: Any, **kwargs: Any) -> None:
    """:func:`record_call` from a call being cancelled (its caller's time-out): recorded in a
    task of its own, so the cancellation goes on at once."""
    task = asyncio.ensure_future(record_call(app, **kwargs))
    _pending.add(task)
    task.add_done_callback(_pending.discard)


_pending: set[asyncio.Future[None]] = set()
