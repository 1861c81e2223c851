"""The port of a third party that makes, texts and checks registration codes itself
(``PAO_OTP_PROVIDER``; ADR 0030), as opposed to Pao making the code and only texting it.

:mod:`pao.identity.otp` keeps every rule of its own in front of a provider (throttles, hourly
budgets, the per-phone lock, wrong-try counting, single use); a provider only answers two
questions: "text this phone a code" and "is this the code?".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


@dataclass(frozen=True)
class ProviderOtp:
    """What the provider answered to a request: its handle on the code (``token``, secret
    to Pao: never logged, never shown) and the reference it texted with the code (``refno``,
    shown to the member beside the code field)."""

    token: str
    refno: str


class Verdict(StrEnum):
    VERIFIED = "VERIFIED"  # the provider said, definitely, "this is the code"
    WRONG = "WRONG"  # the provider answered, and not with a yes
    UNAVAILABLE = "UNAVAILABLE"  # no answer, or one Pao cannot read: try again


class OtpProvider(Protocol):
    async def request(self, *, phone: str) -> ProviderOtp:
        """Have a code texted to ``phone``; raises ``OtpSendFail`` unless definitely sent."""
        ...

    async def verify(self, *, token: str, pin: str) -> Verdict: ...
