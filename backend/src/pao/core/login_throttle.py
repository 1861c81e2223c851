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

    async def check(self, *, account: str, ip: str) -> None:
        """Refuse (429 ``REQUEST_LIMIT``) before the password is even checked, when any key
        has reached its limit; the owner's known addresses pass the per-account backstop."""
        limits = self._limits
        if (
            await self._limiter.get(self._key("pair", account, ip)) >= limits.per_account_ip
            or await self._limiter.get(self._key("ip", ip)) >= limits.per_ip
        ):
            raise TooManyRequests("REQUEST_LIMIT")
        if await self._limiter.get(
            self._key("account", account)
        ) >= limits.per_account and not await self._limiter.get(self._key("known", account, ip)):
            raise TooManyRequests("REQUEST_LIMIT")

    async def failed(self, *, account: str, ip: str) -> None:
        limits = self._limits
        await self._limiter.incr(self._key("pair", account, ip), limits.window_seconds)
        await self._limiter.incr(self._key("ip", ip), limits.window_seconds)
        await self._limiter.incr(self._key("account", account), limits.account_window_seconds)

    async def succeeded(self, *, account: str, ip: str) -> None:
        """Clear this address's failures on the account and remember it as the owner's."""
        await self._limiter.reset(self._key("pair", account, ip))
        known = self._key("known", account, ip)
        await self._limiter.reset(known)
        await self._limiter.incr(known, KNOWN_ADDRESS_SECONDS)
