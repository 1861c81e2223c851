"""TrueMoney gift vouchers ("ซองของขวัญ") as used in the wild (providers.md §7; not an official
API: ADR 0026, addendum "TrueMoney gift links").

* check:  ``GET {base}/campaign/vouchers/{hash}/verify?mobile=<mobile>``
* redeem: ``POST {base}/campaign/vouchers/{hash}/redeem`` JSON ``{mobile, voucher_hash}``

Both answer ``{status: {code, message}, data: {voucher: {amount_baht, redeemed_amount_baht,
member, status, type: R|F, available, …}, my_ticket: {mobile, amount_baht, …}|null, …}}``,
``data`` null on errors, whatever the HTTP status (the status per code is UNCONFIRMED, so only
the body's code is read).

An :class:`Answer` carries the code and what Pao may need of the data: the share already
paid to ``mobile`` (``my_ticket.amount_baht``; else, for a voucher of one share,
``voucher.redeemed_amount_baht``) and the most a new share can be worth (the minimum check).
Anything not understood — not JSON (Cloudflare's HTML 403/429 pages), no ``status.code``,
``INTERNAL_ERROR``, a code not in the list, an amount that does not parse — is
:class:`GatewayUnavailable` (unknown: never a success), after :data:`ATTEMPTS` tries.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

import httpx
import structlog

from pao.core import metrics
from pao.core.settings import Settings
from pao.payments.gateways.base import GatewayUnavailable

log = structlog.get_logger(__name__)

PROVIDER = "truemoney"
ATTEMPTS = 2
RETRY_DELAY_SECONDS = 0.5
TIMEOUT_SECONDS = 10.0

SUCCESS = "SUCCESS"
TARGET_USER_REDEEMED = "TARGET_USER_REDEEMED"
TARGET_USER_NOT_FOUND = "TARGET_USER_NOT_FOUND"
# Definite refusals of the voucher itself (nothing moved).
REFUSALS = frozenset(
    {
        "VOUCHER_NOT_FOUND",
        "VOUCHER_OUT_OF_STOCK",
        "VOUCHER_EXPIRED",
        "CANNOT_GET_OWN_VOUCHER",
        "BAD_PARAM",
    }
)
# Codes read as they are; every other code (INTERNAL_ERROR included) is unknown.
KNOWN = REFUSALS | {SUCCESS, TARGET_USER_REDEEMED, TARGET_USER_NOT_FOUND}


class VoucherRefused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Answer:
    code: str
    # Already paid to the mobile asked about (minor units), when the answer says so.
    mine: int | None = None
    # The most a share not yet taken can be worth (minor units), when the answer says so.
    share: int | None = None


TRUEMONEY_PUBLIC_URL = "https://gift.truemoney.com"


def truemoney_base_url(settings: Settings) -> str:
    """``PAO_TRUEMONEY_URL``, else the sandbox's twin (sandbox on), else TrueMoney's gift host."""
    return settings.provider_url(settings.truemoney_url, TRUEMONEY_PUBLIC_URL, "/sandbox/truemoney")


def _baht(value: Any) -> int | None:
    """``"100.00"`` (or a number) → minor units; None when absent or not a plain amount."""
    if value is None or isinstance(value, bool):
        return None
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        return None
    return int(amount * 100)


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _digits(mobile: Any) -> str:
    return "".join(c for c in str(mobile or "") if c.isdigit())[-9:]


def read_answer(response: httpx.Response, mobile: str) -> Answer:
    """The answer's code and amounts; GatewayUnavailable when it is not understood."""
    try:
        body: Any = response.json()
    except ValueError:
        raise GatewayUnavailable(f"TrueMoney HTTP {response.status_code}, not JSON") from None
    status = _object(body).get("status")
    code = _object(status).get("code")
    if not isinstance(code, str) or code not in KNOWN:
        raise GatewayUnavailable(f"TrueMoney HTTP {response.status_code}, code {code!r}")
    data = _object(_object(body).get("data"))
    voucher = _object(data.get("voucher"))
    ticket = _object(data.get("my_ticket"))
    mine = None
    if ticket:
        # A ticket naming another mobile is not ours (the mobile may be masked: last digits).
        shown = _digits(ticket.get("mobile"))
        if not shown or _digits(mobile).endswith(shown[-4:]):
            mine = _baht(ticket.get("amount_baht"))
    elif voucher and voucher.get("member") in (1, "1", None):
        redeemed = _baht(voucher.get("redeemed_amount_baht"))
        mine = redeemed if redeemed else None
    total = _baht(voucher.get("amount_baht"))
    share = total
    shares = voucher.get("member")
    if total is not None and voucher.get("type") == "F" and isinstance(shares, int) and shares > 1:
        share = total // shares
    if code == SUCCESS and response.status_code >= 300:
        raise GatewayUnavailable(f"TrueMoney HTTP {response.status_code} with SUCCESS")
    return Answer(code=code, mine=mine, share=share)


class TrueMoneyAdapter:
    def __init__(self, *, base_url: str) -> None:
        self._base = base_url

    async def _call(
        self, http: httpx.AsyncClient, action: str, voucher_hash: str, mobile: str
    ) -> Answer:
        url = f"{self._base}/campaign/vouchers/{voucher_hash}/{action}"
        last: GatewayUnavailable | None = None
        for attempt in range(ATTEMPTS):
            if attempt:
                await asyncio.sleep(RETRY_DELAY_SECONDS)
            with metrics.provider_call(PROVIDER, action) as call:
                try:
                    if action == "verify":
                        response = await http.get(
                            url, params={"mobile": mobile}, timeout=TIMEOUT_SECONDS
                        )
                    else:
                        response = await http.post(
                            url,
                            json={"mobile": mobile, "voucher_hash": voucher_hash},
                            timeout=TIMEOUT_SECONDS,
                        )
                except httpx.HTTPError as exc:
                    call.failed(exc)
                    last = GatewayUnavailable(f"TrueMoney unreachable ({type(exc).__name__})")
                    continue
                call.answered(response.status_code)
            try:
                return read_answer(response, mobile)
            except GatewayUnavailable as exc:
                log.warning("truemoney answer unknown", action=action, reason=str(exc))
                last = exc
        assert last is not None
        raise last

    async def verify(self, http: httpx.AsyncClient, *, voucher_hash: str, mobile: str) -> Answer:
        return await self._call(http, "verify", voucher_hash, mobile)

    async def redeem(self, http: httpx.AsyncClient, *, voucher_hash: str, mobile: str) -> Answer:
        return await self._call(http, "redeem", voucher_hash, mobile)
