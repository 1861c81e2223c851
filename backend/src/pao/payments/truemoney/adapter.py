"""The TrueMoney gift-voucher API (HTTP): verify a voucher's amount, redeem it to a wallet.

``POST {base}/campaign/vouchers/{hash}/verify`` and ``…/redeem`` with JSON
``{mobile, voucher_hash}``; answers ``{status: {code}, data: {voucher: {amount_baht}}}``.
Redeeming a voucher again to the *same* wallet answers SUCCESS again (so a retry after a lost
answer is safe); any other code is a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from pao.core.settings import Settings
from pao.payments.gateways.base import GatewayError, GatewayUnavailable, major_text_to_minor


class VoucherRefused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Voucher:
    amount: int  # minor units (satang)


def truemoney_base_url(settings: Settings) -> str:
    return (settings.truemoney_url or f"{settings.base_url}/sandbox/truemoney").rstrip("/")


class TrueMoneyAdapter:
    def __init__(self, *, base_url: str) -> None:
        self._base = base_url

    async def _call(
        self, http: httpx.AsyncClient, action: str, voucher_hash: str, mobile: str
    ) -> Voucher:
        url = f"{self._base}/campaign/vouchers/{voucher_hash}/{action}"
        try:
            response = await http.post(url, json={"mobile": mobile, "voucher_hash": voucher_hash})
        except httpx.HTTPError as exc:
            raise GatewayUnavailable(str(exc)) from exc
        if response.status_code >= 500:
            raise GatewayUnavailable(f"TrueMoney HTTP {response.status_code}")
        try:
            data: Any = response.json()
            code = str(data["status"]["code"])
        except (ValueError, KeyError, TypeError) as exc:
            raise GatewayError("TrueMoney: bad answer") from exc
        if code != "SUCCESS":
            raise VoucherRefused(code)
        try:
            return Voucher(amount=major_text_to_minor(str(data["data"]["voucher"]["amount_baht"])))
        except (KeyError, TypeError) as exc:
            raise GatewayError("TrueMoney: no amount") from exc

    async def verify(self, http: httpx.AsyncClient, *, voucher_hash: str, mobile: str) -> Voucher:
        return await self._call(http, "verify", voucher_hash, mobile)

    async def redeem(self, http: httpx.AsyncClient, *, voucher_hash: str, mobile: str) -> Voucher:
        return await self._call(http, "redeem", voucher_hash, mobile)
