"""Bank QR deposits through SCB's QR payment API (``PAO_BANK_API=scb``, ADR 0029), end to end
against the sandbox bank speaking SCB: QR create v2, the payment confirmation it sends when
the QR is paid on the bank page, and the inquiry that confirms it. Money moves only on SCB's
inquiry's yes, once. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from pao.core.settings import Settings
from pao.kit.clock import clock
from pao.payments.qr import jobs
from pao.payments.qr.models import (
    BankNotification,
    PaymentOutcome,
    QrDeposit,
    QrStatus,
    ScbCallback,
    ScbCallbackState,
)
from pao.payments.qr.scb import GIVE_UP_AFTER
from pao.sandbox.bank import service as bank
from pao.sandbox.bank.models import BankTransfer, ScbBillPayment
from pao.sandbox.bank.scb import build_bill_qr, check_payable, payment_fields, record_payment
from pao.sandbox.bank.service import read_qr
from pao.wallet.models import Statement
from tests.api.test_qr_deposits import balance, books_balanced, count, create, member, qr_row, seed
from tests.helpers import app_of, auth

pytestmark = pytest.mark.sqlite

NOTIFY = "/api/payments/bank/scb/notify"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"bank_api": "scb"})


async def pay(client: httpx.AsyncClient, payload: str) -> httpx.Response:
    body = {"fromBank": "SCB", "fromAccount": "1502830001", "payload": payload}
    response = await client.post("/sandbox/bank/api/qr-payments", json=body)
    assert response.status_code == 201, response.text
    return response


async def scb_down(client: httpx.AsyncClient, down: bool) -> None:
    body = {"provider": "scb", "quotaExhausted": down}
    assert (await client.post("/sandbox/slipcheck/controls", json=body)).status_code == 200


async def confirmation_sent(client: httpx.AsyncClient) -> dict[str, Any]:
    """The last payment confirmation the sandbox SCB sent, as sent."""
    async with app_of(client).state.sandbox_sessionmaker() as session:
        query = (
            select(ScbBillPayment, BankTransfer)
            .join(BankTransfer, BankTransfer.reference == ScbBillPayment.reference)
            .order_by(ScbBillPayment.id.desc())
        )
        payment, record = (await session.execute(query)).first() or (None, None)
    assert payment is not None
    assert record is not None
    return payment_fields(payment, record)


async def callbacks(client: httpx.AsyncClient) -> list[ScbCallback]:
    async with app_of(client).state.sessionmaker() as session:
        return list((await session.execute(select(ScbCallback).order_by(ScbCallback.id))).scalars())


async def reconcile_later(client: httpx.AsyncClient, after: timedelta) -> int:
    clock.advance(after)
    return await jobs.reconcile_tick(app_of(client))


async def open_qr(client: httpx.AsyncClient, amount: float = 100) -> tuple[str, dict[str, Any]]:
    await seed(client)
    token = await member(client)
    created = await create(client, token, "KBANK", amount, key=uuid.uuid4().hex)
    assert created.status_code == 200, created.text
    return token, created.json()


async def test_qr_is_scbs_and_paying_it_credits_once(client: httpx.AsyncClient) -> None:
    token, state = await open_qr(client, 100)
    settings = app_of(client).state.settings
    # SCB's bill payment QR: our biller id, ref1 = the order, the amount asked (no extra
    # satang: ref1 tells the orders apart).
    target = read_qr(state["payload"])
    qr = await qr_row(client, state["qrcodeId"])
    assert (target.receiver_proxy, target.ref1, target.amount) == (
        settings.scb_biller_id,
        qr.order_ref,
        100_00,
    )
    assert state["amount"] == 100
    assert len(qr.order_ref) <= 20
    assert qr.order_ref.isalnum()

    paid = await pay(client, state["payload"])
    assert paid.json()["notified"] == 200
    assert await balance(client, token) == 100
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID
    [claim] = await callbacks(client)
    assert claim.status == ScbCallbackState.CONFIRMED
    assert claim.attempts == 1

    # SCB resends (no answer seen) or someone replays it: answered the same, nothing more.
    sent = await confirmation_sent(client)
    replayed = await client.post(NOTIFY, json=sent)
    assert replayed.status_code == 200, replayed.text
    assert replayed.json() == {
        "resCode": "00",
        "resDesc": "success",
        "transactionId": sent["transactionId"],
        "confirmId": str(claim.id),
    }
    assert await balance(client, token) == 100
    assert await count(client, Statement, Statement.ref_id == f"scb:{sent['transactionId']}") == 1
    assert await books_balanced(client)


async def test_forged_confirmation_moves_nothing(client: httpx.AsyncClient) -> None:
    token, state = await open_qr(client, 100)
    qr = await qr_row(client, state["qrcodeId"])
    forged = {
        "transactionId": str(uuid.uuid4()),
        "amount": "100.00",
        "transactionDateandTime": "2026-12-07T10:00:00+07:00",
        "currencyCode": "764",
        "payeeProxyId": app_of(client).state.settings.scb_biller_id,
        "billPaymentRef1": qr.order_ref,
        "billPaymentRef2": qr.order_ref,
        "billPaymentRef3": "PAO",
    }
    answer = await client.post(NOTIFY, json=forged)
    assert answer.status_code == 200, answer.text
    assert answer.json()["resCode"] == "00"
    assert await balance(client, token) == 0
    [claim] = await callbacks(client)
    assert (claim.status, claim.last_answer) == (
        ScbCallbackState.PENDING,
        "not found by SCB's inquiry",
    )
    # Asked again later: still no; after the late window, left for staff. Never credited.
    assert await reconcile_later(client, timedelta(minutes=2)) == 0
    await reconcile_later(client, GIVE_UP_AFTER)
    [claim] = await callbacks(client)
    assert claim.status == ScbCallbackState.UNCONFIRMED
    assert await balance(client, token) == 0
    assert (await qr_row(client, state["qrcodeId"])).status != QrStatus.PAID
    assert await count(client, BankNotification) == 0
    assert await books_balanced(client)


async def test_inquiry_down_credits_nothing_then_once_on_a_retry(
    client: httpx.AsyncClient,
) -> None:
    token, state = await open_qr(client, 250.5)
    await scb_down(client, True)
    await pay(client, state["payload"])
    assert await balance(client, token) == 0
    [claim] = await callbacks(client)
    assert claim.status == ScbCallbackState.PENDING
    assert claim.last_answer is not None
    assert "4290" in claim.last_answer
    # Not due yet: the reconciler leaves it; still down a minute later: nothing.
    assert await jobs.reconcile_tick(app_of(client)) == 0
    assert await reconcile_later(client, timedelta(seconds=61)) == 0
    await scb_down(client, False)
    assert await reconcile_later(client, timedelta(minutes=3)) == 1
    assert await balance(client, token) == 250.5
    assert await reconcile_later(client, timedelta(hours=1)) == 0
    assert await balance(client, token) == 250.5
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID
    assert await books_balanced(client)


async def test_concurrent_deliveries_credit_once(client: httpx.AsyncClient) -> None:
    token, state = await open_qr(client, 100)
    await scb_down(client, True)
    await pay(client, state["payload"])
    await scb_down(client, False)
    sent = await confirmation_sent(client)
    answers = await asyncio.gather(*(client.post(NOTIFY, json=sent) for _ in range(6)))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    assert {a.json()["transactionId"] for a in answers} == {sent["transactionId"]}
    assert await balance(client, token) == 100
    assert await count(client, Statement, Statement.ref_id == f"scb:{sent['transactionId']}") == 1
    [claim] = await callbacks(client)
    assert claim.status == ScbCallbackState.CONFIRMED
    assert await books_balanced(client)


async def test_a_lost_confirmation_is_found_by_asking_scb(client: httpx.AsyncClient) -> None:
    token, state = await open_qr(client, 100)
    # Paid at the bank, but SCB's confirmation never reaches Pao.
    async with app_of(client).state.sandbox_sessionmaker() as session:
        target = read_qr(state["payload"])
        made = await check_payable(session, target)
        record, _ = await bank.pay_qr(
            session, from_bank="SCB", from_account="1502830001", payload=state["payload"],
            amount=None,
        )  # fmt: skip
        await record_payment(session, record, target, made)
        await session.commit()
    assert await jobs.reconcile_tick(app_of(client)) == 0  # asked from the QR's expiry on
    assert await balance(client, token) == 0
    qr = await qr_row(client, state["qrcodeId"])
    assert await reconcile_later(client, qr.expires_at - clock.now() + timedelta(seconds=31)) == 1
    assert await balance(client, token) == 100
    [claim] = await callbacks(client)
    assert claim.status == ScbCallbackState.CONFIRMED
    # The confirmation arriving after all, and later checks: nothing more.
    assert (await client.post(NOTIFY, json=await confirmation_sent(client))).status_code == 200
    assert await reconcile_later(client, timedelta(hours=3)) == 0
    assert await balance(client, token) == 100
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID_LATE
    assert await books_balanced(client)


async def test_amount_mismatch_is_left_for_staff(client: httpx.AsyncClient) -> None:
    token, state = await open_qr(client, 100)
    qr = await qr_row(client, state["qrcodeId"])
    biller = app_of(client).state.settings.scb_biller_id
    # A payment naming the order but of another amount (a QR made elsewhere).
    other = build_bill_qr(biller_id=biller, ref1=qr.order_ref, ref2="", amount=90_00)
    await pay(client, other)
    assert await balance(client, token) == 0
    [claim] = await callbacks(client)
    assert claim.status == ScbCallbackState.CONFIRMED
    async with app_of(client).state.sessionmaker() as session:
        note = (await session.execute(select(BankNotification))).scalar_one()
    assert (note.outcome, note.amount, note.qr_deposit_id) == (
        PaymentOutcome.UNMATCHED,
        90_00,
        None,
    )
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PENDING
    assert await books_balanced(client)


async def test_cancelled_order_paid_is_credited_late(client: httpx.AsyncClient) -> None:
    token, state = await open_qr(client, 100)
    cancelled = await client.delete(f"/api/qrcode/{state['qrcodeId']}", headers=auth(token))
    assert cancelled.status_code == 200
    await pay(client, state["payload"])
    assert await balance(client, token) == 100
    assert (await qr_row(client, state["qrcodeId"])).status == QrStatus.PAID_LATE


async def test_expired_scb_qr_is_refused_by_the_bank(client: httpx.AsyncClient) -> None:
    _token, state = await open_qr(client, 100)
    clock.advance(timedelta(hours=2))
    body = {"fromBank": "SCB", "fromAccount": "1502830001", "payload": state["payload"]}
    refused = await client.post("/sandbox/bank/api/qr-payments", json=body)
    assert (refused.status_code, refused.json()["code"]) == (400, "QR_EXPIRED")
    assert await count(client, ScbCallback) == 0


async def test_bad_confirmations_are_refused(client: httpx.AsyncClient) -> None:
    for body in (b"not json", b"{}", json.dumps({"transactionId": "x", "amount": "-1"}).encode()):
        answer = await client.post(NOTIFY, content=body)
        assert (answer.status_code, answer.json()["message"]) == (422, "KEY_INVALID")
    assert await count(client, ScbCallback) == 0


async def test_scb_down_at_create_is_qr_fail(client: httpx.AsyncClient) -> None:
    await seed(client)
    token = await member(client)
    app_of(client).state.settings = app_of(client).state.settings.model_copy(
        update={"scb_url": "http://127.0.0.1:9/nowhere"}
    )
    created = await create(client, token, "KBANK", 100)
    assert (created.status_code, created.json()["message"]) == (400, "QR_FAIL")
    assert await count(client, QrDeposit) == 0


async def test_callback_is_off_in_pao_mode(client: httpx.AsyncClient) -> None:
    app_of(client).state.settings = app_of(client).state.settings.model_copy(
        update={"bank_api": "pao"}
    )
    answer = await client.post(NOTIFY, json={"transactionId": "x"})
    assert (answer.status_code, answer.json()["message"]) == (404, "NO_DATA")
