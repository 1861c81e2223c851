"""Hourly caps on SMS that no rotation of IP addresses or phone numbers gets around.

The OTP throttles (pao.identity.otp) cap SMS per phone and per client IP; someone rotating
addresses over many numbers, typically consecutive numbers of a premium range ("SMS pumping"),
passes both. Every SMS therefore also spends from two hourly budgets:

* per phone-number prefix: the first ``otpPrefixDigits`` digits of the number as validated
  (``otpHourlyCapPerPrefix`` SMS per hour), which stops a sweep through one range;
* all SMS together (``otpHourlyCap`` per hour), the backstop on what a day can cost, and
  beyond it a reserve (``PAO_OTP_RESERVE_PER_HOUR``) that only requests carrying a proof of
  work may spend (:mod:`pao.identity.otp_proof`), so that pumping cannot lock real registrants
  out for the hour.

An hour is a fixed window that starts with the first SMS counted in it.

A refusal answers 429 ``OTP_BLOCK``, the code (and text) of the other OTP caps. A send
refused by its prefix does not spend from the total, so a sweep through one range does not eat
everyone's budget; reaching the total does stop OTPs for everybody until the hour ends, which is
the point of a backstop, so it is logged as a warning for the operator.

The counters live in the :class:`~pao.core.ratelimit.RateLimiter` (memory, or Redis when
configured), so N processes share them. They count from the moment the SMS is handed to the
gateway: a send that then fails still counts (it may have been delivered).
"""

from __future__ import annotations

from dataclasses import dataclass

import structlog

from pao.core.ratelimit import RateLimiter
from pao.identity.exceptions import OtpBlock

log = structlog.get_logger(__name__)

HOUR_SECONDS = 3600


@dataclass(frozen=True)
class SmsLimits:
    per_prefix_per_hour: int
    per_hour: int
    prefix_digits: int
    # Beyond per_hour, for requests with a proof of work (pao.identity.otp_proof).
    reserve_per_hour: int = 0


class SmsBudget:
    """Spends one SMS from the prefix's and the total hourly budget, or refuses."""

    def __init__(self, limiter: RateLimiter, limits: SmsLimits) -> None:
        self._limiter = limiter
        self._limits = limits

    async def spend(self, *, phone: str, proven: bool = False) -> None:
        limits = self._limits
        prefix = phone[: limits.prefix_digits]
        if await self._limiter.incr(f"sms:prefix:{prefix}", HOUR_SECONDS) > (
            limits.per_prefix_per_hour
        ):
            log.info("sms refused: prefix budget spent", prefix=prefix)
            raise OtpBlock()
        if await self._limiter.incr("sms:all", HOUR_SECONDS) <= limits.per_hour:
            return
        if not proven:
            log.warning("sms refused: the hourly total is spent", cap=limits.per_hour)
            # The app may try again with a proof of work, which opens the reserve.
            raise OtpBlock(reserve=limits.reserve_per_hour > 0)
        if await self._limiter.incr("sms:reserve", HOUR_SECONDS) > limits.reserve_per_hour:
            log.warning("sms refused: the reserve is spent too", cap=limits.reserve_per_hour)
            raise OtpBlock()
