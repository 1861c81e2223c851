"""Every provider call, observed: a :class:`GameProvider` that wraps another and reports each
call's outcome and duration to :func:`pao.games.health.record_call` (health tracker, log,
metrics hook). :func:`pao.games.providers.provider_for` hands out only wrapped providers, so no
call escapes it — the request's, the reconciler's, the back office's alike."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

from pao.games.health import CallOutcome, record_call, shielded_record
from pao.games.providers.base import (
    BetRecord,
    Credentials,
    GameProvider,
    ProviderRefused,
    ProviderUnavailable,
    RemoteTransfer,
)

T = TypeVar("T")


def classify(exc: BaseException) -> CallOutcome:
    if isinstance(exc, ProviderRefused):
        return CallOutcome.REFUSED
    if isinstance(exc, ProviderUnavailable) and exc.reason == "TIMEOUT":
        return CallOutcome.TIMEOUT
    return CallOutcome.FAILED


class ObservedProvider:
    def __init__(self, inner: GameProvider, *, app: Any, code: str) -> None:
        self._inner = inner
        self._app = app
        self._code = code

    async def _observe(self, operation: str, call: Callable[[], Awaitable[T]]) -> T:
        started = time.monotonic()
        report = {"code": self._code, "operation": operation}
        try:
            result = await call()
        except asyncio.CancelledError:
            # The caller's own time-out (e.g. a balance refresh) ended the call.
            await shielded_record(
                self._app,
                **report,
                outcome=CallOutcome.TIMEOUT,
                seconds=time.monotonic() - started,
                error="TIMEOUT",
            )
            raise
        except Exception as exc:
            await record_call(
                self._app,
                **report,
                outcome=classify(exc),
                seconds=time.monotonic() - started,
                error=getattr(exc, "reason", type(exc).__name__),
            )
            raise
        await record_call(
            self._app, **report, outcome=CallOutcome.OK, seconds=time.monotonic() - started
        )
        return result

    async def create_account(self, *, member_ref: str) -> Credentials:
        return await self._observe(
            "account", lambda: self._inner.create_account(member_ref=member_ref)
        )

    async def balance(self, *, username: str) -> int:
        return await self._observe("balance", lambda: self._inner.balance(username=username))

    async def deposit(self, *, username: str, amount: int, transfer_id: str) -> RemoteTransfer:
        return await self._observe(
            "deposit",
            lambda: self._inner.deposit(username=username, amount=amount, transfer_id=transfer_id),
        )

    async def withdraw(self, *, username: str, amount: int, transfer_id: str) -> RemoteTransfer:
        return await self._observe(
            "withdraw",
            lambda: self._inner.withdraw(username=username, amount=amount, transfer_id=transfer_id),
        )

    async def transfer_status(self, *, transfer_id: str) -> RemoteTransfer:
        return await self._observe(
            "status", lambda: self._inner.transfer_status(transfer_id=transfer_id)
        )

    async def reset_password(self, *, username: str) -> str:
        return await self._observe(
            "password", lambda: self._inner.reset_password(username=username)
        )

    async def launch_link(self, *, username: str) -> str:
        return await self._observe("launch", lambda: self._inner.launch_link(username=username))

    async def bets(self, *, username: str, since: datetime, until: datetime) -> list[BetRecord]:
        return await self._observe(
            "bets", lambda: self._inner.bets(username=username, since=since, until=until)
        )
