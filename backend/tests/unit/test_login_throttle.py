"""The login throttle stops guessers without locking the owner out."""

from __future__ import annotations

import pytest

from pao.core.errors import TooManyRequests
from pao.core.login_throttle import LoginLimits, LoginThrottle
from pao.core.ratelimit import MemoryRateLimiter

LIMITS = LoginLimits(per_account_ip=3, per_ip=10, per_account=6)


def throttle() -> LoginThrottle:
    return LoginThrottle(MemoryRateLimiter(), scope="member", limits=LIMITS)


async def fail(t: LoginThrottle, *, account: str, ip: str, times: int) -> None:
    for _ in range(times):
        await t.check(account=account, ip=ip)
        await t.failed(account=account, ip=ip)


async def test_a_guesser_at_one_address_is_stopped_but_the_owner_elsewhere_is_not() -> None:
    t = throttle()
    await fail(t, account="0812345678", ip="203.0.113.9", times=3)
    with pytest.raises(TooManyRequests):
        await t.check(account="0812345678", ip="203.0.113.9")
    await t.check(account="0812345678", ip="198.51.100.1")  # the owner, elsewhere


async def test_one_address_spraying_many_accounts_is_stopped() -> None:
    t = throttle()
    for n in range(5):
        await fail(t, account=f"08100000{n:02d}", ip="203.0.113.9", times=2)
    with pytest.raises(TooManyRequests):
        await t.check(account="0899999999", ip="203.0.113.9")


async def test_rotating_addresses_hit_the_backstop_but_the_owners_known_address_passes() -> None:
    t = throttle()
    await t.succeeded(account="0812345678", ip="198.51.100.1")  # the owner logged in before
    for n in range(6):
        await fail(t, account="0812345678", ip=f"203.0.113.{n}", times=1)
    with pytest.raises(TooManyRequests):
        await t.check(account="0812345678", ip="192.0.2.77")
    await t.check(account="0812345678", ip="198.51.100.1")


async def test_success_clears_the_addresss_failures() -> None:
    t = throttle()
    await fail(t, account="0812345678", ip="203.0.113.9", times=2)
    await t.succeeded(account="0812345678", ip="203.0.113.9")
    await fail(t, account="0812345678", ip="203.0.113.9", times=2)
    await t.check(account="0812345678", ip="203.0.113.9")
