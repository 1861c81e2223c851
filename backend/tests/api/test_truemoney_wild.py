"""TrueMoney gift links as used in the wild (providers.md §7), end to end against the sandbox
speaking that format: random-split envelopes, every failure answer (what the member sees, and
that no money moved, or that it moved once on the retry that finally got a yes)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import select

from pao.ledger.service import check_books
from pao.payments.accounts import ReceivingKind, find_active
from pao.payments.truemoney import adapter as truemoney
from pao.payments.truemoney.models import RedemptionStatus, VoucherRedemption
from tests.api.test_truemoney import balance, seed, send
from tests.helpers import app_of, register_and_login

pytestmark = pytest.mark.sqlite


@pytest.fixture(autouse=True)
def no_delay(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(truemoney, "RETRY_DELAY_SECONDS", 0)


async def member(client: httpx.AsyncClient) -> str:
    await seed(client)
    _phone, token = await register_and_login(client)
    return token


async def wallet_mobile(client: httpx.AsyncClient) -> str:
    async with app_of(client).state.sessionmaker() as session:
        wallet = await find_active(session, kind=ReceivingKind.TRUEMONEY, code="TRUEMONEY")
        assert wallet is not None
        assert wallet.account_no is not None
        return wallet.account_no


async def mint(client: httpx.AsyncClient, amount: float, **extra: Any) -> tuple[str, str]:
    response = await client.post("/sandbox/truemoney/vouchers", json={"amount": amount, **extra})
    assert response.status_code == 201, response.text
    return response.json()["link"], response.json()["voucherHash"]


async def fault(client: httpx.AsyncClient, action: str, answer: str, count: int = 1) -> None:
    response = await client.post(
        "/sandbox/truemoney/faults", json={"action": action, "answer": answer, "count": count}
    )
    assert response.status_code == 200


async def my_ticket(client: httpx.AsyncClient, voucher: str, mobile: str) -> float:
    answer = await client.get(
        f"/sandbox/truemoney/campaign/vouchers/{voucher}/verify", params={"mobile": mobile}
    )
    return float(answer.json()["data"]["my_ticket"]["amount_baht"])


async def claim(client: httpx.AsyncClient, voucher: str) -> VoucherRedemption | None:
    async with app_of(client).state.sessionmaker() as session:
        query = select(VoucherRedemption).where(VoucherRedemption.voucher_hash == voucher)
        row: VoucherRedemption | None = (await session.execute(query)).scalar_one_or_none()
        return row


async def books_balanced(client: httpx.AsyncClient) -> None:
    async with app_of(client).state.sessionmaker() as session:
        assert (await check_books(session)).balanced


def unknown(response: httpx.Response) -> None:
    assert response.status_code == 502, response.text
    assert response.json()["message"] == "INTERNAL_SERVER_ERROR"


async def test_a_random_split_share_is_credited_not_the_envelope(
    client: httpx.AsyncClient,
) -> None:
    token = await member(client)
    link, voucher = await mint(client, 100, shares=3, type="R")
    response = await send(client, token, link)
    assert response.status_code == 200, response.text
    share = await my_ticket(client, voucher, await wallet_mobile(client))
    assert response.json() == {"code": "SUCCESS", "amount": share}
    assert await balance(client, token) == share
    row = await claim(client, voucher)
    assert row is not None
    assert (row.status, row.amount, row.reason) == (
        RedemptionStatus.CREDITED,
        round(share * 100),
        None,
    )
    await books_balanced(client)


async def test_a_small_random_share_already_taken_is_still_credited(
    client: httpx.AsyncClient,
) -> None:
    # The envelope passes the minimum; its random share may not: the money is then already
    # in the operator's wallet, so it is credited rather than kept.
    token = await member(client)
    link, voucher = await mint(client, 2, shares=2, type="R")
    assert (await send(client, token, link)).status_code == 200
    assert await balance(client, token) == await my_ticket(
        client, voucher, await wallet_mobile(client)
    )


async def test_equal_shares_below_the_minimum_are_not_redeemed(client: httpx.AsyncClient) -> None:
    token = await member(client)
    link, voucher = await mint(client, 6, shares=4, type="F")
    response = await send(client, token, link)
    assert response.json() == {"message": "TRANSFER_MINIMUM", "minimum": 2}
    tickets = await client.get(
        f"/sandbox/truemoney/campaign/vouchers/{voucher}/verify", params={"mobile": "0811111111"}
    )
    assert tickets.json()["data"]["voucher"]["redeemed"] == 0
    assert await balance(client, token) == 0


@pytest.mark.parametrize("case", ["out-of-stock", "own-voucher", "expired", "not-found"])
async def test_refusals_are_invalid_and_move_nothing(client: httpx.AsyncClient, case: str) -> None:
    token = await member(client)
    if case == "own-voucher":
        link, voucher = await mint(client, 10, ownerMobile=await wallet_mobile(client))
    elif case == "expired":
        link, voucher = await mint(client, 10, expired=True)
    elif case == "not-found":
        voucher = "0123456789abcdef0123"
        link = f"https://gift.truemoney.com/campaign/?v={voucher}"
    else:
        link, voucher = await mint(client, 10, shares=2)
        for mobile in ("0811111111", "0822222222"):
            await client.post(
                f"/sandbox/truemoney/campaign/vouchers/{voucher}/redeem",
                json={"mobile": mobile, "voucher_hash": voucher},
            )
    response = await send(client, token, link)
    assert response.status_code == 400
    assert response.json()["message"] == "TRUELINK_INVALID"
    assert await balance(client, token) == 0
    row = await claim(client, voucher)
    assert row is not None
    assert row.status == RedemptionStatus.FAILED


@pytest.mark.parametrize(
    ("action", "answer"),
    [
        ("verify", "cloudflare403"),
        ("verify", "cloudflare429"),
        ("verify", "html502"),
        ("verify", "INTERNAL_ERROR"),
        ("verify", "SOMETHING_NEW"),
        ("verify", "TARGET_USER_NOT_FOUND"),
        ("redeem", "cloudflare403"),
        ("redeem", "INTERNAL_ERROR"),
    ],
)
async def test_unknown_answers_leave_it_pending_and_a_retry_credits_once(
    client: httpx.AsyncClient, action: str, answer: str
) -> None:
    token = await member(client)
    link, voucher = await mint(client, 40)
    # A definite code is not asked again within the request; an unknown answer is.
    definite = answer in truemoney.KNOWN
    await fault(client, action, answer, count=1 if definite else truemoney.ATTEMPTS)
    unknown(await send(client, token, link))
    assert await balance(client, token) == 0
    row = await claim(client, voucher)
    assert row is not None
    assert row.status == RedemptionStatus.PENDING
    again = await send(client, token, link)
    assert again.status_code == 200, again.text
    assert await balance(client, token) == 40
    assert (await send(client, token, link)).json()["message"] == "TRUELINK_DUPLICATE"
    assert await balance(client, token) == 40
    await books_balanced(client)


async def test_one_cloudflare_page_is_retried_within_the_request(
    client: httpx.AsyncClient,
) -> None:
    token = await member(client)
    link, _ = await mint(client, 15)
    await fault(client, "verify", "cloudflare403")
    assert (await send(client, token, link)).status_code == 200
    assert await balance(client, token) == 15


async def test_a_lost_redeem_answer_is_settled_by_target_user_redeemed(
    client: httpx.AsyncClient,
) -> None:
    # The redeem took the share but its answer was lost; the retry is TARGET_USER_REDEEMED,
    # and TrueMoney's check names the share: credited once, in the same request.
    token = await member(client)
    link, _ = await mint(client, 25)
    await fault(client, "redeem", "lost")
    response = await send(client, token, link)
    assert response.status_code == 200, response.text
    assert response.json()["amount"] == 25
    assert await balance(client, token) == 25
    await books_balanced(client)


async def test_a_lost_answer_then_a_refusal_is_not_final(client: httpx.AsyncClient) -> None:
    # After a redeem was sent, "out of stock" may be our own share: never a failure, and the
    # member's next submission credits it once.
    token = await member(client)
    link, voucher = await mint(client, 30)
    await fault(client, "redeem", "lost")
    await fault(client, "redeem", "html502")
    unknown(await send(client, token, link))
    row = await claim(client, voucher)
    assert row is not None
    assert (row.status, row.reason) == (RedemptionStatus.PENDING, "REDEEM_SENT")
    await fault(client, "verify", "VOUCHER_OUT_OF_STOCK")
    unknown(await send(client, token, link))
    assert await balance(client, token) == 0
    third = await send(client, token, link)
    assert third.status_code == 200, third.text
    assert await balance(client, token) == 30
    assert (await send(client, token, link)).json()["message"] == "TRUELINK_DUPLICATE"
    assert await balance(client, token) == 30
    await books_balanced(client)


async def test_target_user_redeemed_without_a_ticket_is_unknown(
    client: httpx.AsyncClient,
) -> None:
    token = await member(client)
    link, voucher = await mint(client, 20)
    await fault(client, "redeem", "TARGET_USER_REDEEMED", count=1)
    # TrueMoney's check then names no share for the wallet: no credit on a guess.
    unknown(await send(client, token, link))
    assert await balance(client, token) == 0
    row = await claim(client, voucher)
    assert row is not None
    assert row.status == RedemptionStatus.PENDING
