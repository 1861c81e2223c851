"""QR deposits through the API on both databases: lookup, KBANK PromptPay QR with the bank's
signed notification, the three gateways with their sandbox, the reconciler, and every refusal."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.ledger.service import check_books
from pao.payments.accounts import seed_receiving_accounts
from pao.payments.qr import jobs
from pao.payments.qr.models import GatewayPayment, QrDeposit, QrStatus
from pao.payments.qr.promptpay import parse_laoqr, parse_promptpay
from pao.wallet.models import Statement
from tests.helpers import (
    app_of,
    auth,
    member_id,
    register_and_login,
    set_money_setting,
    set_site_setting,
)

# Also on SQLite (tests/databases.py): QR deposit credits: money steps.
pytestmark = pytest.mark.sqlite

KBANK_PROMPTPAY = "0812223333"


async def seed(client: httpx.AsyncClient) -> None:
    async with app_of(client).state.sessionmaker() as session:
        await seed_receiving_accounts(session)
        await session.commit()


async def balance(client: httpx.AsyncClient, token: str) -> float:
    response = await client.get("/api/wallet", headers=auth(token))
    assert response.status_code == 200, response.text
    amount: float = response.json()["wallet"]["amount"]
    return amount


async def create(
    client: httpx.AsyncClient, token: str, code: str, amount: Any, key: str | None = None
) -> httpx.Response:
    headers = {**auth(token), **({"Idempotency-Key": key} if key else {})}
    return await client.post(f"/api/qrcode/{code}", json={"amount": amount}, headers=headers)


def signed(client: httpx.AsyncClient, body: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    raw = json.dumps(body).encode()
    secret = app_of(client).state.settings.bank_webhook_secret
    signature = hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
    return raw, {"X-Bank-Signature": signature, "Content-Type": "application/json"}


async def notify(
    client: httpx.AsyncClient,
    *,
    amount: float,
    payload: str | None = None,
    transfer_id: str | None = None,
    receiver: str = KBANK_PROMPTPAY,
) -> httpx.Response:
    raw, headers = signed(
        client,
        {
            "transferId": transfer_id or uuid.uuid4().hex,
            "amount": amount,
            "currency": "THB",
            "receiverProxy": receiver,
            "qrPayload": payload,
            "paidAt": "2026-11-21T12:00:00+00:00",
        },
    )
    return await client.post("/api/payments/bank/notify", content=raw, headers=headers)


async def member(client: httpx.AsyncClient) -> str:
    _phone, token = await register_and_login(client)
    return token


async def count(client: httpx.AsyncClient, model: Any, *where: Any) -> int:
    async with app_of(client).state.sessionmaker() as session:
        return int(
            (
                await session.execute(select(func.count()).select_from(model).where(*where))
            ).scalar_one()
        )


async def qr_row(client: httpx.AsyncClient, qr_id: str) -> QrDeposit:
    session: AsyncSession
    async with app_of(client).state.sessionmaker() as session:
        row = await session.get(QrDeposit, int(qr_id))
    assert row is not None
    return row


async def books_balanced(client: httpx.AsyncClient) -> bool:
    async with app_of(client).state.sessionmaker() as session:
        return (await check_books(session)).balanced


# --- lookup -------------------------------------------------------------------------------------


async def test_deposit_lookup(client: httpx.AsyncClient) -> None:
    empty = await client.get("/api/lookup/deposit")
    assert empty.json() == {"banks": [], "wallets": [], "isManual": True}
    await seed(client)
    await seed(client)  # idempotent
    data = (await client.get("/api/lookup/deposit")).json()
    banks = {b["bankCode"]: b for b in data["banks"]}
    assert list(banks) == ["SCB", "KBANK", "WW", "PAYTIMZ", "PAYONEX"]
    assert banks["SCB"]["bankType"] == "BANK"
    assert banks["SCB"]["mode"] == "MANUAL"
    assert banks["SCB"]["bankAccountNo"] == "4071234567"
    assert banks["KBANK"]["mode"] == "AUTO"
    assert banks["KBANK"]["bank"]["nameEN"] == "Kasikornbank"
    assert banks["WW"]["bankType"] == "PAYMENT"
    assert banks["WW"]["currency"] == "THB"
    assert data["wallets"] == [{"mode": "GIFT_LINK", "walletAccountName": "PAO DEMO WALLET"}]
    assert data["isManual"] is False
    minimums = {code: bank["qrMinimum"] for code, bank in banks.items()}
    assert minimums == {"SCB": None, "KBANK": 1, "WW": 100, "PAYTIMZ": 10, "PAYONEX": 100}


# --- KBANK ----------------------------------------------------------------------------------------


async def test_kbank_qr_create_show_cancel(client: httpx.AsyncClient) -> None:
    await seed(client)
    token, other = await member(client), await member(client)
    assert (await client.get("/api/qrcode/KBANK", headers=auth(token))).json()["hasQrcode"] is False
    created = await create(client, token, "KBANK", 100)
    assert created.status_code == 200, created.text
    state = created.json()
    assert state["hasQrcode"] is True
    assert state["amount"] == 100
    assert state["qrcode"].startswith("<svg")
    qr = parse_promptpay(state["payload"])
    assert (qr.proxy, qr.amount) == (KBANK_PROMPTPAY, 100_00)
    shown = (await client.get("/api/qrcode/KBANK", headers=auth(token))).json()
    assert shown["qrcodeId"] == state["qrcodeId"]
    assert shown["expireIn"] == state["expireIn"]
    # Not the owner: as if it did not exist.
    foreign = await client.delete(f"/api/qrcode/{state['qrcodeId']}", headers=auth(other))
    assert foreign.status_code == 404
    assert foreign.json()["message"] == "NO_DATA"
    cancelled = await client.delete(f"/api/qrcode/{state['qrcodeId']}", headers=auth(token))
    assert cancelled.status_code == 200
    assert cancelled.json()["hasQrcode"] is False
    assert (await client.get("/api/qrcode/KBANK", headers=auth(token))).json()["hasQrcode"] is False
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.CANCELLED


async def test_kbank_amounts_are_unique_per_open_qr(client: httpx.AsyncClient) -> None:
    await seed(client)
    amounts = []
    for _ in range(3):
        response = await create(client, await member(client), "KBANK", 50)
        amounts.append(response.json()["amount"])
    assert amounts == [50, 50.01, 50.02]


async def test_qr_expires(client: httpx.AsyncClient) -> None:
    await seed(client)
    await set_site_setting(client, "qrExpireMinutes", 5)
    token = await member(client)
    state = (await create(client, token, "KBANK", 10)).json()
    clock.advance(timedelta(minutes=5, seconds=1))
    assert (await client.get("/api/qrcode/KBANK", headers=auth(token))).json()["hasQrcode"] is False
    assert await jobs.expire_tick(app_of(client)) == 1
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.EXPIRED


@pytest.mark.parametrize(
    ("code", "amount", "status", "message"),
    [
        ("KBANK", 0, 400, "TRANSFER_MINIMUM"),
        ("KBANK", 0.99, 400, "TRANSFER_MINIMUM"),
        ("WW", 99.99, 400, "TRANSFER_MINIMUM"),
        ("PAYTIMZ", 9.99, 400, "TRANSFER_MINIMUM"),
        ("PAYONEX", 99, 400, "TRANSFER_MINIMUM"),
        ("SCB", 100, 400, "QR_FAIL"),  # a slip-only bank has no QR
        ("NOPE", 100, 400, "QR_FAIL"),
        ("KBANK", -1, 422, "KEY_INVALID"),
        ("KBANK", 1.001, 422, "KEY_INVALID"),
        ("KBANK", "100", 422, "KEY_INVALID"),
    ],
)
async def test_create_refusals(
    client: httpx.AsyncClient, code: str, amount: Any, status: int, message: str
) -> None:
    await seed(client)
    response = await create(client, await member(client), code, amount)
    assert response.status_code == status, response.text
    assert response.json()["message"] == message
    assert await count(client, QrDeposit) == 0


async def test_create_needs_login(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/qrcode/KBANK", json={"amount": 10})
    assert response.status_code == 401
    assert response.json()["message"] == "invalid-token"


async def test_paytimz_minimum_setting(client: httpx.AsyncClient) -> None:
    await seed(client)
    await set_money_setting(client, "paytimzMinimum", THB=50_00)
    token = await member(client)
    refused = await create(client, token, "PAYTIMZ", 20)
    assert refused.json() == {"message": "TRANSFER_MINIMUM", "minimum": 50}
    assert (await create(client, token, "PAYTIMZ", 50)).status_code == 200


async def test_double_clicked_create_makes_one_qr(client: httpx.AsyncClient) -> None:
    await seed(client)
    token = await member(client)
    for code, amount in (("KBANK", 10), ("WW", 100)):
        first, second = await asyncio.gather(
            create(client, token, code, amount, key=f"k-{code}"),
            create(client, token, code, amount, key=f"k-{code}"),
        )
        assert first.status_code == second.status_code == 200, (first.text, second.text)
        assert first.json()["qrcodeId"] == second.json()["qrcodeId"]
        assert await count(client, QrDeposit, QrDeposit.channel == code) == 1
    reused = await create(client, token, "KBANK", 20, key="k-KBANK")
    assert reused.status_code == 409
    assert reused.json()["message"] == "IDEMPOTENCY_KEY_REUSED"


async def test_notify_credits_once_even_when_replayed_concurrently(
    client: httpx.AsyncClient,
) -> None:
    await seed(client)
    token = await member(client)
    state = (await create(client, token, "KBANK", 100)).json()
    answers = await asyncio.gather(
        *(notify(client, amount=100, transfer_id="TX-1", payload=None) for _ in range(5))
    )
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    assert sorted(a.json()["duplicate"] for a in answers) == [False, True, True, True, True]
    assert await balance(client, token) == 100
    assert await count(client, Statement, Statement.ref_id == "TX-1") == 1
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID
    assert (await client.get("/api/qrcode/KBANK", headers=auth(token))).json()["hasQrcode"] is False
    assert await books_balanced(client)


async def test_an_open_qr_learns_it_was_paid_and_cannot_be_cancelled(
    client: httpx.AsyncClient,
) -> None:
    # Issue 17: the app polls the status of the QR it shows; a paid QR is a success, and
    # cancelling it answers 409 QR_FAIL (the app says it was paid, not "creation failed").
    await seed(client)
    token, other = await member(client), await member(client)
    state = (await create(client, token, "KBANK", 100)).json()
    path = f"/api/qrcode/status/{state['qrcodeId']}"
    pending = await client.get(path, headers=auth(token))
    assert pending.status_code == 200, pending.text
    assert pending.json() == {"qrcodeId": state["qrcodeId"], "status": "PENDING", "paid": False}
    # Another member's QR, or no QR at all: not found.
    elsewhere = (
        (other, path),
        (token, "/api/qrcode/status/999999"),
        (token, "/api/qrcode/status/x"),
    )
    for who, where in elsewhere:
        missing = await client.get(where, headers=auth(who))
        assert (missing.status_code, missing.json()["message"]) == (404, "NO_DATA")
    assert (await client.get(path)).status_code == 401

    assert (
        await notify(client, amount=100, transfer_id="TX-PAID", payload=None)
    ).status_code == 200
    paid = (await client.get(path, headers=auth(token))).json()
    assert (paid["status"], paid["paid"]) == ("PAID", True)
    refused = await client.delete(f"/api/qrcode/{state['qrcodeId']}", headers=auth(token))
    assert (refused.status_code, refused.json()["message"]) == (409, "QR_FAIL")
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID


async def test_a_qr_past_its_expiry_reads_expired(client: httpx.AsyncClient) -> None:
    await seed(client)
    token = await member(client)
    state = (await create(client, token, "KBANK", 100)).json()
    clock.advance(timedelta(minutes=31))  # past any expiry; not yet swept by the job
    path = f"/api/qrcode/status/{state['qrcodeId']}"
    status = (await client.get(path, headers=auth(token))).json()
    assert (status["status"], status["paid"]) == ("EXPIRED", False)


async def test_notify_matches_by_unique_amount_and_payload(client: httpx.AsyncClient) -> None:
    await seed(client)
    first, second = await member(client), await member(client)
    a = (await create(client, first, "KBANK", 100)).json()
    b = (await create(client, second, "KBANK", 100)).json()
    assert (a["amount"], b["amount"]) == (100, 100.01)
    assert (await notify(client, amount=100.01)).json()["outcome"] == "CREDITED"
    assert (await balance(client, first), await balance(client, second)) == (0, 100.01)
    matched = await notify(client, amount=100, payload=a["payload"])
    assert matched.json()["outcome"] == "CREDITED"
    assert await balance(client, first) == 100
    # The receiver in the QR's own form (0066…) is the same PromptPay id.
    c = (await create(client, second, "KBANK", 30)).json()
    international = await notify(client, amount=30, receiver="0066812223333")
    assert international.json()["outcome"] == "CREDITED", c
    assert await balance(client, second) == 130.01
    # Money that matches no QR is kept for the operator, nobody is credited.
    assert (await notify(client, amount=77)).json()["outcome"] == "UNMATCHED"


async def test_notify_bad_signature_credits_nothing(client: httpx.AsyncClient) -> None:
    await seed(client)
    token = await member(client)
    await create(client, token, "KBANK", 100)
    raw, headers = signed(
        client,
        {
            "transferId": "TX-9",
            "amount": 100,
            "currency": "THB",
            "receiverProxy": KBANK_PROMPTPAY,
            "paidAt": "2026-11-21T12:00:00+00:00",
        },
    )
    tampered = raw.replace(b"100", b"1000")
    for body, sig in ((tampered, headers), (raw, {**headers, "X-Bank-Signature": "00" * 32})):
        response = await client.post("/api/payments/bank/notify", content=body, headers=sig)
        assert response.status_code == 401
        assert response.json()["message"] == "UNAUTHORIZED"
    missing = await client.post("/api/payments/bank/notify", content=raw)
    assert missing.status_code == 401
    assert await balance(client, token) == 0


@pytest.mark.parametrize("how", ["expired", "cancelled"])
async def test_late_notify_is_credited_once_and_recorded(
    client: httpx.AsyncClient, how: str
) -> None:
    await seed(client)
    token = await member(client)
    state = (await create(client, token, "KBANK", 20)).json()
    if how == "expired":
        clock.advance(timedelta(minutes=16))
        await jobs.expire_tick(app_of(client))
    else:
        await client.delete(f"/api/qrcode/{state['qrcodeId']}", headers=auth(token))
    first = await notify(client, amount=20, transfer_id="LATE-1")
    again = await notify(client, amount=20, transfer_id="LATE-1")
    assert first.json() == {"code": "OK", "outcome": "CREDITED_LATE", "duplicate": False}
    assert again.json()["duplicate"] is True
    assert await balance(client, token) == 20
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID_LATE


async def test_creating_a_qr_makes_other_channels_stale(client: httpx.AsyncClient) -> None:
    await seed(client)
    token = await member(client)
    ww = (await create(client, token, "WW", 100)).json()
    await create(client, token, "KBANK", 10)
    assert (await client.get("/api/qrcode/WW", headers=auth(token))).json()["hasQrcode"] is False
    row = await qr_row(client, ww["qrcodeId"])
    assert row.stale
    assert row.status == QrStatus.PENDING
    # Stale is not cancelled: paying it still credits.
    paid = await client.post("/sandbox/gateways/pay", json={"payload": ww["payload"]})
    assert paid.status_code == 200
    assert paid.json()["callbacks"] == [200]
    assert await balance(client, token) == 100


# --- gateways -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "amount"), [("WW", 150), ("PAYTIMZ", 10.5), ("PAYONEX", 100)])
async def test_gateway_pay_twice_credits_once(
    client: httpx.AsyncClient, code: str, amount: float
) -> None:
    await seed(client)
    token = await member(client)
    state = (await create(client, token, code, amount)).json()
    assert state["hasQrcode"]
    assert parse_promptpay(state["payload"]).amount == round(amount * 100)
    paid = await client.post(
        "/sandbox/gateways/pay", json={"payload": state["payload"], "callback": "twice"}
    )
    assert paid.json()["callbacks"] == [200, 200], paid.text
    assert await balance(client, token) == amount
    assert await count(client, GatewayPayment) == 1
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID
    assert await books_balanced(client)


@pytest.mark.parametrize("code", ["WW", "PAYTIMZ", "PAYONEX"])
async def test_gateway_callback_bad_signature(client: httpx.AsyncClient, code: str) -> None:
    await seed(client)
    token = await member(client)
    state = (await create(client, token, code, 100)).json()
    order = await client.post(
        "/sandbox/gateways/pay", json={"payload": state["payload"], "callback": "drop"}
    )
    view = order.json()
    bodies = {
        "WW": (
            json.dumps(
                {
                    "event": "PAYMENT_SUCCESS",
                    "merchantRef": view["merchantRef"],
                    "txnId": view["txnId"],
                    "amount": "100.00",
                    "currency": "THB",
                }
            ),
            {"X-WW-Signature": "ab" * 32, "Content-Type": "application/json"},
        ),
        "PAYTIMZ": (
            f"out_trade_no={view['merchantRef']}&total_fee=10000&trade_status=SUCCESS"
            f"&transaction_id={view['txnId']}&sign={'A' * 64}",
            {"Content-Type": "application/x-www-form-urlencoded"},
        ),
        "PAYONEX": (
            json.dumps({"type": "charge.paid", "data": {}}),
            {"Payonex-Signature": "t=1,v1=x", "Content-Type": "application/json"},
        ),
    }
    body, headers = bodies[code]
    response = await client.post(
        f"/api/payments/gateways/{code}/callback", content=body, headers=headers
    )
    assert response.status_code == 401
    assert response.json()["message"] == "UNAUTHORIZED"
    assert await balance(client, token) == 0


async def test_reconciler_settles_a_dropped_callback(client: httpx.AsyncClient) -> None:
    await seed(client)
    token = await member(client)
    state = (await create(client, token, "PAYONEX", 200)).json()
    dropped = await client.post(
        "/sandbox/gateways/pay", json={"payload": state["payload"], "callback": "drop"}
    )
    assert dropped.json()["callbacks"] == []
    app = app_of(client)
    assert await jobs.reconcile_tick(app) == 0  # not near expiry yet: not asked
    clock.advance(timedelta(minutes=15))
    assert await jobs.reconcile_tick(app) >= 1
    assert await balance(client, token) == 200
    clock.advance(timedelta(minutes=2))
    await jobs.reconcile_tick(app)
    # The late callback now arrives too: recognised, nothing more credited.
    late = await client.post(
        f"/sandbox/gateways/PAYONEX/orders/{dropped.json()['orderId']}/callback"
    )
    assert late.json()["callbacks"] == [200]
    assert await balance(client, token) == 200
    assert await count(client, GatewayPayment) == 1


async def test_gateway_late_callback_after_cancel(client: httpx.AsyncClient) -> None:
    await seed(client)
    token = await member(client)
    state = (await create(client, token, "WW", 100)).json()
    await client.delete(f"/api/qrcode/{state['qrcodeId']}", headers=auth(token))
    paid = await client.post("/sandbox/gateways/pay", json={"payload": state["payload"]})
    assert paid.json()["callbacks"] == [200]
    assert await balance(client, token) == 100
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID_LATE


async def test_reused_amount_slot_credits_the_new_qr(client: httpx.AsyncClient) -> None:
    """A paid QR frees its amount; the next QR of that amount has the same payload text, and
    a payment with that payload is the new QR's, not a second payment of the old one."""
    await seed(client)
    first, second = await member(client), await member(client)
    old = (await create(client, first, "KBANK", 40)).json()
    await notify(client, amount=40, payload=old["payload"])
    new = (await create(client, second, "KBANK", 40)).json()
    assert new["payload"] == old["payload"]
    answer = await notify(client, amount=40, payload=new["payload"])
    assert answer.json()["outcome"] == "CREDITED"
    assert (await balance(client, first), await balance(client, second)) == (40, 40)
    # A third transfer with that payload: the newest QR's member (paid twice), recorded.
    extra = await notify(client, amount=40, payload=new["payload"])
    assert extra.json()["outcome"] == "CREDITED_EXTRA"
    assert await balance(client, second) == 80


async def test_lao_account_builds_a_lao_qr_in_kip(client: httpx.AsyncClient) -> None:
    async with app_of(client).state.sessionmaker() as session:
        await seed_receiving_accounts(session, lao_mode=True)
        await session.commit()
    token = await member(client)
    async with app_of(client).state.sessionmaker() as session:
        row = await session.get(Member, await member_id(client, token))
        assert row is not None
        row.currency = Currency.LAK
        await session.commit()
    # Kip carry no decimals on a Lao QR.
    fractional = await create(client, token, "BCEL", 50000.5)
    assert fractional.status_code == 422
    state = (await create(client, token, "BCEL", 50000)).json()
    qr = parse_laoqr(state["payload"])
    assert (qr.bank_id, qr.receiver_id, qr.amount) == ("27710418", "I90BYP17BC295VZ", 5_000_000)
    raw, headers = signed(
        client,
        {
            "transferId": "LAO-1",
            "amount": 50000,
            "currency": "LAK",
            "receiverProxy": "I90BYP17BC295VZ",
            "qrPayload": state["payload"],
            "paidAt": "2026-11-21T12:00:00+00:00",
        },
    )
    answer = await client.post("/api/payments/bank/notify", content=raw, headers=headers)
    assert answer.json()["outcome"] == "CREDITED"
    assert await balance(client, token) == 50000
    # A THB member cannot use the kip account.
    thb = await create(client, await member(client), "BCEL", 50000)
    assert thb.json()["message"] == "QR_FAIL"
