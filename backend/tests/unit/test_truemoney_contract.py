"""The TrueMoney gift-voucher adapter pinned to the format used in the wild (providers.md §7),
on ``httpx.MockTransport``: the requests it sends, and how each documented answer reads."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from pao.payments.gateways.base import GatewayUnavailable
from pao.payments.truemoney import adapter as truemoney
from pao.payments.truemoney.adapter import Answer, TrueMoneyAdapter

BASE = "https://gift.truemoney.com"
HASH = "019a2b3c4d5e6f7a8b9c"
MOBILE = "0812345678"


@pytest.fixture(autouse=True)
def no_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(truemoney, "RETRY_DELAY_SECONDS", 0)


def documented(
    code: str = "SUCCESS",
    *,
    amount: str = "100.00",
    redeemed: str = "37.21",
    member: int = 3,
    kind: str = "R",
    ticket: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The documented shape ([V1]): status, and data (null on errors)."""
    if code != "SUCCESS":
        return {"status": {"code": code, "message": code}, "data": None}
    return {
        "status": {"code": "SUCCESS", "message": "success"},
        "data": {
            "voucher": {
                "voucher_id": "4455667788",
                "amount_baht": amount,
                "redeemed_amount_baht": redeemed,
                "member": member,
                "status": "active",
                "link": f"{BASE}/campaign/?v={HASH}",
                "detail": "",
                "expire_date": 1767225600000,
                "type": kind,
                "redeemed": 1,
                "available": member - 1,
            },
            "owner_profile": {"full_name": "สมชาย ใ***"},
            "redeemer_profile": {"mobile_number": MOBILE} if ticket else None,
            "my_ticket": ticket,
            "tickets": [ticket] if ticket else [],
        },
    }


def on(*answers: httpx.Response) -> tuple[httpx.AsyncClient, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    queue = list(answers)

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return httpx.AsyncClient(transport=httpx.MockTransport(handler)), seen


def ticket(amount: str, mobile: str = MOBILE) -> dict[str, Any]:
    return {
        "mobile": mobile,
        "update_date": 1767139200000,
        "amount_baht": amount,
        "full_name": "ร้าน P***",
        "profile_pic": None,
    }


async def test_verify_is_a_get_with_the_mobile() -> None:
    http, seen = on(httpx.Response(200, json=documented()))
    answer = await TrueMoneyAdapter(base_url=BASE).verify(http, voucher_hash=HASH, mobile=MOBILE)
    (request,) = seen
    assert request.method == "GET"
    assert str(request.url) == f"{BASE}/campaign/vouchers/{HASH}/verify?mobile={MOBILE}"
    assert answer == Answer("SUCCESS", mine=None, share=100_00)


async def test_redeem_posts_the_mobile_and_hash_and_reads_my_ticket() -> None:
    http, seen = on(httpx.Response(200, json=documented(ticket=ticket("37.21"))))
    answer = await TrueMoneyAdapter(base_url=BASE).redeem(http, voucher_hash=HASH, mobile=MOBILE)
    (request,) = seen
    assert request.method == "POST"
    assert str(request.url) == f"{BASE}/campaign/vouchers/{HASH}/redeem"
    assert request.headers["content-type"] == "application/json"
    assert json.loads(request.content) == {"mobile": MOBILE, "voucher_hash": HASH}
    assert answer.mine == 37_21  # the random-split share, not the envelope's total


@pytest.mark.parametrize(
    ("body", "mine", "share"),
    [
        # One share: the redeemed amount is ours even without my_ticket.
        (documented(member=1, kind="F", redeemed="100.00"), 100_00, 100_00),
        # Several shares, no ticket: the redeemed total is everyone's, not ours.
        (documented(member=3, redeemed="80.00"), None, 100_00),
        # Equal shares: a share is the total over the members.
        (documented(member=4, kind="F", redeemed="0.00"), None, 25_00),
        # A ticket naming another mobile (masked) is not ours.
        (documented(ticket=ticket("10.00", "099***9999")), None, 100_00),
        # A masked ticket with our last digits is ours.
        (documented(ticket=ticket("10.00", "081***5678")), 10_00, 100_00),
        # An amount that does not parse is no amount.
        (documented(ticket=ticket("ten")), None, 100_00),
        (documented(ticket=ticket("1.234")), None, 100_00),
    ],
)
async def test_amounts(body: dict[str, Any], mine: int | None, share: int | None) -> None:
    http, _ = on(httpx.Response(200, json=body))
    answer = await TrueMoneyAdapter(base_url=BASE).redeem(http, voucher_hash=HASH, mobile=MOBILE)
    assert (answer.mine, answer.share) == (mine, share)


@pytest.mark.parametrize(
    "code",
    [
        "VOUCHER_NOT_FOUND",
        "VOUCHER_OUT_OF_STOCK",
        "VOUCHER_EXPIRED",
        "CANNOT_GET_OWN_VOUCHER",
        "TARGET_USER_NOT_FOUND",
        "TARGET_USER_REDEEMED",
        "BAD_PARAM",
    ],
)
@pytest.mark.parametrize("status", [200, 400, 404])
async def test_documented_codes_are_read_from_the_body(code: str, status: int) -> None:
    http, seen = on(httpx.Response(status, json=documented(code)))
    answer = await TrueMoneyAdapter(base_url=BASE).redeem(http, voucher_hash=HASH, mobile=MOBILE)
    assert answer == Answer(code)
    assert len(seen) == 1  # a definite answer is not asked again


CLOUDFLARE = "<!DOCTYPE html><html><head><title>Just a moment...</title></head></html>"


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(403, text=CLOUDFLARE, headers={"content-type": "text/html"}),
        httpx.Response(429, text=CLOUDFLARE, headers={"content-type": "text/html"}),
        httpx.Response(502, text="Bad gateway"),
        httpx.Response(200, text=""),
        httpx.Response(500, json=documented("INTERNAL_ERROR")),
        httpx.Response(200, json=documented("SOMETHING_NEW")),
        httpx.Response(200, json={"data": None}),
        httpx.Response(200, json=["SUCCESS"]),
        httpx.Response(500, json=documented()),  # SUCCESS with an error status
    ],
)
async def test_unknown_answers_are_retried_then_unknown(response: httpx.Response) -> None:
    http, seen = on(response)
    with pytest.raises(GatewayUnavailable):
        await TrueMoneyAdapter(base_url=BASE).redeem(http, voucher_hash=HASH, mobile=MOBILE)
    assert len(seen) == truemoney.ATTEMPTS


async def test_a_cloudflare_page_then_an_answer() -> None:
    http, seen = on(
        httpx.Response(403, text=CLOUDFLARE), httpx.Response(200, json=documented(member=1))
    )
    answer = await TrueMoneyAdapter(base_url=BASE).verify(http, voucher_hash=HASH, mobile=MOBILE)
    assert answer.code == "SUCCESS"
    assert len(seen) == 2


async def test_a_network_failure_is_unknown() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectTimeout("timed out")

    http = httpx.AsyncClient(transport=httpx.MockTransport(handler))
    with pytest.raises(GatewayUnavailable):
        await TrueMoneyAdapter(base_url=BASE).verify(http, voucher_hash=HASH, mobile=MOBILE)
