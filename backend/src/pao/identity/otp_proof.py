"""A cheap proof of work that opens the OTP reserve (issue 33 §2).

The hourly SMS total (:mod:`pao.identity.sms_budget`) is a backstop any client could spend by
rotating addresses over random numbers, refusing real registrants for the rest of the hour. A
reserve beyond it stays for requests that carry a proof: a challenge Pao issued (random, kept
five minutes in the rate limiter's store, good once) and a nonce such that
``sha256("{challenge}:{nonce}")`` starts with ``bits`` zero bits. The app solves it only when
the shared budget is spent (the refusal says ``reserve: true``): about a second of a cheap
phone's CPU at the default 16 bits, so the reserve costs a pumping script work per SMS instead
of nothing. What is left (docs/security.md): a well-funded script can still solve proofs; the
per-prefix and per-IP caps and the reserve's own size bound what it spends.
"""

from __future__ import annotations

import hashlib
import secrets

from pao.core.ratelimit import RateLimiter

CHALLENGE_SECONDS = 300
_KEY = "otp:challenge:"


async def issue(limiter: RateLimiter) -> str:
    challenge = secrets.token_urlsafe(18)
    await limiter.incr(_KEY + challenge, CHALLENGE_SECONDS)
    return challenge


def solves(challenge: str, nonce: str, bits: int) -> bool:
    digest = hashlib.sha256(f"{challenge}:{nonce}".encode()).digest()
    return int.from_bytes(digest, "big") >> (256 - bits) == 0


async def redeem(limiter: RateLimiter, challenge: str, nonce: str, bits: int) -> bool:
    """Whether the proof holds, for a challenge Pao issued and nobody redeemed before (the
    count goes 1 at issue, 2 at the first redemption)."""
    if not (1 <= len(challenge) <= 64 and 1 <= len(nonce) <= 32) or not solves(
        challenge, nonce, bits
    ):
        return False
    count = await limiter.incr(_KEY + challenge, CHALLENGE_SECONDS)
    if count == 1:  # never issued: spoil it, so that a second try is not its "first use"
        await limiter.incr(_KEY + challenge, CHALLENGE_SECONDS)
    return count == 2
