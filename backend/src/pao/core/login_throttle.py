"""Login throttling that stops brute force without handing strangers a lock.

A plain "N failures per account locks the account" rule lets anyone lock a member (or a staff
member) out by typing wrong passwords for them. Failures are counted instead on three keys:

* per (account, IP): a guesser at one address is stopped after a few tries on that account,
  and nobody else is affected;
* per IP: one address spraying many accounts is stopped;
* per account, over a longer window (the backstop): a guesser rotating addresses gets only a
  bounded number of tries per hour. While the backstop is reached, only addresses that have
  logged in to that account successfully before (remembered for 30 days) may still try, so
  the owner at home or at the office keeps getting in.

Each attempt is reserved before the password or code is looked at (an atomic increment that
refuses past the limit), so concurrent guesses cannot slip between a check and its count; a
success, or a first step that passed, gives its reservation back.

The counters live in the :class:`~pao.core.ratelimit.RateLimiter` (memory, or Redis when
configured), so N processes share them. Accounts are identified by a caller-chosen string
(a phone number, a staff login), namespaced by ``scope``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pao.core.errors import TooManyRequests
from pao.core.ratelimit import RateLimiter

KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600


@dataclass(frozen=True)
class LoginLimits:
    """How many failures each key may count before it refuses, and over which windows."""

    per_account_ip: int = 5
    per_ip: int = 30
    window_seconds: int = 15 * 60
    per_account: int = 50
    account_window_seconds: int = 3600


class LoginThrottle:
    """Counts login failures for one kind of principal (``scope``: "member", "staff", …)."""

    def __init__(self, limiter: RateLimiter, *, scope: str, limits: LoginLimits) -> None:
        self._limiter = limiter
        self._scope = scope
        self._limits = limits

    def _key(self, kind: str, *parts: str) -> str:
        return ":".join(("login", self._scope, kind, *parts))

    def _counters(self, account: str, ip: str) -> list[tuple[str, int, int]]:
        """(key, limit, window) of the three counters an attempt counts on."""
        limits = self._limits
        return [
            (self._key("pair", account, ip), limits.per_account_ip, limits.window_seconds),
            (self._key("ip", ip), limits.per_ip, limits.window_seconds),
            (self._key("account", account), limits.per_account, limits.account_window_seconds),
        ]

    async def check(self, *, account: str, ip: str) -> None:
        """Reserve this attempt, before the password (or code) is even looked at: each counter
        is incremented first, atomically, and the attempt is refused (429 ``REQUEST_LIMIT``)
        when that takes any of them past its limit. Counting after the check let 50
        concurrent guesses all pass a check that had seen none of the others (7 TOTP checks
        where 5 were allowed). The owner's known addresses pass the per-account backstop. A
        refused attempt gives its reservation back; a failed one keeps it
        (:meth:`failed`); a successful one gives it back (:meth:`succeeded`)."""
        counters = self._counters(account, ip)
        counts = [await self._limiter.incr(key, window) for key, _, window in counters]
        (pair, ip_count, account_count) = counts
        limits = self._limits
        over = pair > limits.per_account_ip or ip_count > limits.per_ip
        if not over and account_count > limits.per_account:
            over = not await self._limiter.get(self._key("known", account, ip))
        if over:
            await self._give_back(counters)
            raise TooManyRequests("REQUEST_LIMIT")

    async def _give_back(self, counters: list[tuple[str, int, int]]) -> None:
        for key, _, _ in counters:
            await self._limiter.decr(key)

    async def passed(self, *, account: str, ip: str) -> None:
        """A first step passed (the staff password, before the code): its reservation is given
        back, and the next step reserves its own."""
        await self._give_back(self._counters(account, ip))

    async def failed(self, *, account: str, ip: str) -> None:
        """The attempt reserved by :meth:`check` failed: its reservation stands as the failure."""

    async def succeeded(self, *, account: str, ip: str) -> None:
        """Give the reservation back, clear this address's failures on the account and
        remember the address as the owner's."""
        await self._give_back(self._counters(account, ip))
        await self._limiter.reset(self._key("pair", account, ip))
        known = self._key("known", account, ip)
        await self._limiter.reset(known)
        await self._limiter.incr(known, KNOWN_ADDRESS_SECONDS)
