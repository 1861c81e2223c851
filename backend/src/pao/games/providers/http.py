"""The HTTP (JSON) game provider adapter.

It speaks the provider API that the built-in sandbox implements (``/sandbox/games/api``):
amounts in integer minor units, our transfer id as the idempotency key, an ``X-Api-Key``
header. Outcomes are classified in one place (:meth:`HttpGameProvider._call`):

* 2xx → the answer;
* 4xx → :class:`ProviderRefused` (the provider looked at the request and said no);
* 5xx, a broken connection, or no answer within ``timeout`` → :class:`ProviderUnavailable`.

The time-out is enforced here with ``asyncio.timeout`` rather than by httpx alone, so it also
holds for in-process transports (tests) and for a provider that trickles its answer.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

import httpx

from pao.games.providers.base import (
    BetRecord,
    Credentials,
    ProviderRefused,
    ProviderUnavailable,
    RemoteTransfer,
    RemoteTransferState,
)
from pao.kit.urls import WEB, safe_url


class HttpGameProvider:
    def __init__(
        self,
        *,
        http: httpx.AsyncClient,
        base_url: str,
        brand: str,
        api_key: str,
        timeout: float,
    ) -> None:
        self._http = http
        self._base = f"{base_url.rstrip('/')}/{brand}"
        self._api_key = api_key
        self._timeout = timeout

    async def _call(
        self,
        method: str,
        path: str,
        *,
        json: dict[str, Any] | None = None,
        params: dict[str, str] | None = None,
        not_found_ok: bool = False,
    ) -> dict[str, Any]:
        try:
            async with asyncio.timeout(self._timeout):
                response = await self._http.request(
                    method,
                    f"{self._base}{path}",
                    json=json,
                    params=params,
                    headers={"X-Api-Key": self._api_key},
                    timeout=self._timeout,
                )
        except TimeoutError as exc:
            raise ProviderUnavailable("TIMEOUT") from exc
        except httpx.HTTPError as exc:
            raise ProviderUnavailable(type(exc).__name__) from exc
        if response.status_code == 404 and not_found_ok:
            return {"status": RemoteTransferState.NOT_FOUND.value}
        if response.status_code >= 500:
            raise ProviderUnavailable(f"HTTP_{response.status_code}")
        try:
            body = response.json()
        except ValueError as exc:
            raise ProviderUnavailable("BAD_BODY") from exc
        if not isinstance(body, dict):
            raise ProviderUnavailable("BAD_BODY")
        if response.status_code >= 400:
            raise ProviderRefused(str(body.get("error") or f"HTTP_{response.status_code}"))
        return body

    @staticmethod
    def _transfer(body: dict[str, Any], transfer_id: str) -> RemoteTransfer:
        try:
            state = RemoteTransferState(str(body.get("status")))
        except ValueError as exc:
            raise ProviderUnavailable("BAD_STATUS") from exc
        balance = body.get("balance")
        return RemoteTransfer(
            transfer_id=str(body.get("transferId") or transfer_id),
            state=state,
            balance=int(balance) if isinstance(balance, int) else None,
            reason=str(body["reason"]) if body.get("reason") else None,
        )

    async def create_account(self, *, member_ref: str) -> Credentials:
        body = await self._call("POST", "/accounts", json={"memberRef": member_ref})
        return Credentials(username=str(body["username"]), password=str(body["password"]))

    async def balance(self, *, username: str) -> int:
        body = await self._call("GET", f"/accounts/{username}/balance")
        return int(body["balance"])

    async def _move(
        self, kind: str, *, username: str, amount: int, transfer_id: str
    ) -> RemoteTransfer:
        body = await self._call(
            "POST",
            "/transfers",
            json={
                "transferId": transfer_id,
                "username": username,
                "type": kind,
                "amount": amount,
            },
        )
        return self._transfer(body, transfer_id)

    async def deposit(self, *, username: str, amount: int, transfer_id: str) -> RemoteTransfer:
        return await self._move(
            "deposit", username=username, amount=amount, transfer_id=transfer_id
        )

    async def withdraw(self, *, username: str, amount: int, transfer_id: str) -> RemoteTransfer:
        return await self._move(
            "withdraw", username=username, amount=amount, transfer_id=transfer_id
        )

    async def transfer_status(self, *, transfer_id: str) -> RemoteTransfer:
        body = await self._call("GET", f"/transfers/{transfer_id}", not_found_ok=True)
        return self._transfer(body, transfer_id)

    async def reset_password(self, *, username: str) -> str:
        body = await self._call("POST", f"/accounts/{username}/password")
        return str(body["password"])

    async def launch_link(self, *, username: str) -> str:
        body = await self._call("POST", f"/accounts/{username}/launch")
        # The app opens it as given: an absolute http(s) URL, never script or another scheme.
        link = safe_url(str(body.get("url") or ""), WEB)
        if not link:
            raise ProviderUnavailable("BAD_LINK")
        return link

    async def bets(self, *, username: str, since: datetime, until: datetime) -> list[BetRecord]:
        body = await self._call(
            "GET",
            f"/accounts/{username}/bets",
            params={"since": since.isoformat(), "until": until.isoformat()},
        )
        return [
            BetRecord(
                bet_id=str(row["betId"]),
                bet=int(row["bet"]),
                payout=int(row["payout"]),
                created_at=datetime.fromisoformat(str(row["createdAt"])),
            )
            for row in body.get("bets", [])
        ]
