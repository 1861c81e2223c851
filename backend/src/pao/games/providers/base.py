"""The game provider port: what Pao needs from any game provider.

Every call answers, raises :class:`ProviderRefused` (a *definite* no: nothing happened at the
provider) or raises :class:`ProviderUnavailable` (an *unknown* outcome: time-out, 5xx, broken
connection — the provider may or may not have acted). The transfer saga treats the two very
differently: a refusal voids the hold, an unknown outcome keeps it until the reconciler knows.

Exception hierarchy::

    ProviderError
     ├── ProviderRefused      definite: nothing happened
     └── ProviderUnavailable  unknown: ask again later (transfer status)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol


class ProviderError(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ProviderRefused(ProviderError):
    """The provider said no; nothing was done (e.g. INSUFFICIENT_BALANCE, REFUSED)."""


class ProviderUnavailable(ProviderError):
    """No usable answer; the provider may have acted."""


@dataclass(frozen=True)
class Credentials:
    username: str
    password: str


class RemoteTransferState(StrEnum):
    SUCCESS = "SUCCESS"
    FAILED = "FAILED"  # recorded by the provider as failed: it will never succeed
    NOT_FOUND = "NOT_FOUND"  # the provider never processed this transfer id


@dataclass(frozen=True)
class RemoteTransfer:
    transfer_id: str
    state: RemoteTransferState
    balance: int | None = None  # the account's balance after it, minor units, when known
    reason: str | None = None


@dataclass(frozen=True)
class BetRecord:
    bet_id: str
    bet: int  # minor units staked
    payout: int  # minor units won back (0 on a loss)
    created_at: datetime


class GameProvider(Protocol):
    """One provider account namespace (one game code). Amounts are minor units."""

    async def create_account(self, *, member_ref: str) -> Credentials: ...

    async def balance(self, *, username: str) -> int: ...

    async def deposit(self, *, username: str, amount: int, transfer_id: str) -> RemoteTransfer:
        """Put money in; ``transfer_id`` is the provider's idempotency key: sending it again
        returns the first outcome and never moves money twice."""
        ...

    async def withdraw(self, *, username: str, amount: int, transfer_id: str) -> RemoteTransfer: ...

    async def transfer_status(self, *, transfer_id: str) -> RemoteTransfer: ...

    async def reset_password(self, *, username: str) -> str: ...

    async def launch_link(self, *, username: str) -> str: ...

    async def bets(self, *, username: str, since: datetime, until: datetime) -> list[BetRecord]: ...
