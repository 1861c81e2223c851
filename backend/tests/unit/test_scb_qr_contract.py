"""SCB's QR payment API as Pao speaks it (``PAO_BANK_API=scb``), pinned to providers.md §6:
QR create v2's request, the payment confirmation's documented example, Pao's reply, and the
inquiry's answers (only status 1000 with the payment confirms; anything else is unknown), with
``httpx.MockTransport``. Also: production refuses to start without SCB's settings."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import httpx
import pytest
from structlog.testing import capture_logs

from pao.core.settings import Settings
from pao.payments.qr.scb import Claim, confirming
from pao.payments.scb.confirmation import NotAConfirmation, read_confirmation, reply
from pao.payments.scb.oauth import MemoryTokenCache, ScbOAuth
from pao.payments.scb.qrpay import ScbPayment, ScbQrApi, ScbQrUnavailable, expiry_text

SETTINGS = Settings(
    env="test",
    sandbox=False,
    bank_api="scb",
    scb_api_key="l7xx-scb-key",
    scb_api_secret="scb-secret-0001",
    scb_biller_id="925244165291982",
    scb_ref3_prefix="YQH",
)
BASE = "https://api.partners.scb/partners"
TOKEN = {"status": {"code": 1000, "description": "Success"}, "data": {"accessToken": "tok-1"}}

# providers.md §6: the payment confirmation example (thanakan-oauth's WebhookBody [B6]).
EXAMPLE = {
    "transactionDateandTime": "2021-02-24T11:10:12+07:00",
    "sendingBankCode": "014",
    "payerName": "Susophida Khunnawut",
    "payerProxyType": "ACCOUNT",
    "payerProxyId": "1502830001",
    "payerAccountNumber": "1502830001",
    "receivingBankCode": "014",
    "payeeName": "TestBiller1608347078",
    "payeeProxyType": "BILLERID",
    "payeeProxyId": "925244165291982",
    "payeeAccountNumber": "0987654321",
    "amount": "100",
    "currencyCode": "764",
    "transactionId": "9ed5caf2-0a38-4f5a-80b1-20e76f26b2a6",
    "transactionType": "Domestic Transfers",
    "billPaymentRef1": "ABCDEFGHIJ1234567890",
    "billPaymentRef2": "ABCDEFGHIJ1234567890",
    "billPaymentRef3": "YQH",
    "channelCode": "PMH",
}


async def _call(answers: list[httpx.Response], run: Any) -> tuple[Any, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/v1/oauth/token"):
            return httpx.Response(200, json=TOKEN)
        return answers.pop(0)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as http:
        api = ScbQrApi(http, SETTINGS, ScbOAuth(http, SETTINGS, MemoryTokenCache()))
        try:
            return await run(api), seen
        except ScbQrUnavailable as exc:
            return exc, seen


def test_the_documented_confirmation_reads() -> None:
    note = read_confirmation(json.dumps(EXAMPLE).encode())
    assert note.transaction_id == "9ed5caf2-0a38-4f5a-80b1-20e76f26b2a6"
    assert note.amount == 100_00
    assert note.ref1 == "ABCDEFGHIJ1234567890"
    assert note.ref3 == "YQH"
    assert note.biller_id == "925244165291982"
    assert note.paid_at == datetime(2021, 2, 24, 4, 10, 12, tzinfo=UTC)
    assert (note.sending_bank, note.payer_account) == ("014", "1502830001")
    # A number in practice, as well as the documented string; never a float's rounding.
    assert read_confirmation(json.dumps({**EXAMPLE, "amount": 100.1}).encode()).amount == 100_10


@pytest.mark.parametrize(
    "change",
    [
        {"transactionId": ""},
        {"amount": "0"},
        {"amount": "1.001"},
        {"amount": None},
        {"transactionDateandTime": "2021-02-24T11:10:12"},  # no offset: no instant
        {"billPaymentRef1": ""},
    ],
)
def test_unreadable_confirmations_are_refused(change: dict[str, Any]) -> None:
    with pytest.raises(NotAConfirmation):
        read_confirmation(json.dumps({**EXAMPLE, **change}).encode())
    with pytest.raises(NotAConfirmation):
        read_confirmation(b"<html>")


def test_reply_is_scbs() -> None:
    assert reply("9ed5", "42") == {
        "resCode": "00",
        "resDesc": "success",
        "transactionId": "9ed5",
        "confirmId": "42",
    }


async def test_qr_create_v2_request() -> None:
    ok = httpx.Response(
        200, json={"status": {"code": 1000}, "data": {"qrRawData": "000201...", "qrImage": "iV"}}
    )
    expires = datetime(2026, 12, 7, 3, 15, 0, tzinfo=UTC)

    async def run(api: ScbQrApi) -> str:
        return await api.create_qr(ref1="Q0123456789ABCDEF0", amount=250_50, expires_at=expires)

    raw, seen = await _call([ok], run)
    assert raw == "000201..."
    create = seen[1]
    assert str(create.url) == f"{BASE}/v2/payment/qrcode/create"
    assert create.headers["authorization"] == "Bearer tok-1"
    assert create.headers["resourceOwnerId"] == "l7xx-scb-key"
    assert len(create.headers["requestUId"]) == 32
    assert json.loads(create.content) == {
        "qrType": "PP",
        "ppType": "BILLERID",
        "ppId": "925244165291982",
        "amount": "250.50",
        "ref1": "Q0123456789ABCDEF0",
        "ref2": "Q0123456789ABCDEF0",
        "ref3": "YQH",
        "numberOfTimes": 1,
        "expiryDate": "2026-12-07 10:15:00",
    }
    assert expiry_text(expires) == "2026-12-07 10:15:00"


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(200, json={"status": {"code": 4001}, "data": None}),
        httpx.Response(200, json={"status": {"code": 1000}, "data": {}}),
        httpx.Response(500, text="<html>"),
    ],
)
async def test_qr_create_failures_are_unavailable(answer: httpx.Response) -> None:
    async def run(api: ScbQrApi) -> str:
        return await api.create_qr(ref1="Q1", amount=100, expires_at=datetime.now(UTC))

    result, _ = await _call([answer], run)
    assert isinstance(result, ScbQrUnavailable)


def _inquiry_ok(*items: dict[str, Any]) -> httpx.Response:
    return httpx.Response(200, json={"status": {"code": 1000}, "data": list(items)})


async def test_inquiry_request_and_payments() -> None:
    async def run(api: ScbQrApi) -> list[ScbPayment]:
        return await api.inquire(ref1="ABCDEFGHIJ1234567890", day=date(2021, 2, 24))

    found, seen = await _call([_inquiry_ok(EXAMPLE, {"junk": True})], run)
    assert found == [
        ScbPayment(
            transaction_id="9ed5caf2-0a38-4f5a-80b1-20e76f26b2a6",
            amount=100_00,
            ref1="ABCDEFGHIJ1234567890",
            biller_id="925244165291982",
            paid_at=datetime(2021, 2, 24, 4, 10, 12, tzinfo=UTC),
        )
    ]
    asked = seen[1]
    assert asked.url.path == "/partners/v1/payment/billpayment/inquiry"
    assert dict(asked.url.params) == {
        "eventCode": "00300100",
        "billerId": "925244165291982",
        "reference1": "ABCDEFGHIJ1234567890",
        "transactionDate": "2021-02-24",
    }


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(429, json={"status": {"code": 4290}}),
        httpx.Response(200, json={"status": {"code": 9999}, "data": []}),
        httpx.Response(502, text="Bad gateway"),
    ],
)
async def test_inquiry_failures_are_unknown(answer: httpx.Response) -> None:
    async def run(api: ScbQrApi) -> list[ScbPayment]:
        return await api.inquire(ref1="R", day=date(2021, 2, 24))

    result, _ = await _call([answer], run)
    assert isinstance(result, ScbQrUnavailable)


async def test_inquiry_401_renews_the_token_once() -> None:
    async def run(api: ScbQrApi) -> list[ScbPayment]:
        return await api.inquire(ref1="R", day=date(2021, 2, 24))

    found, seen = await _call([httpx.Response(401, json={}), _inquiry_ok()], run)
    assert found == []
    assert sum(r.url.path.endswith("/oauth/token") for r in seen) == 2


def test_only_the_same_transaction_reference_and_biller_confirms() -> None:
    claim = Claim(1, "T1", "REF1", datetime(2021, 2, 24, tzinfo=UTC), pending=True)
    same = ScbPayment("T1", 100_00, "REF1", "925244165291982")
    biller = SETTINGS.scb_biller_id
    assert confirming(claim, [same], biller) == same
    assert confirming(claim, [ScbPayment("T2", 100_00, "REF1", biller)], biller) is None
    assert confirming(claim, [ScbPayment("T1", 100_00, "REF2", biller)], biller) is None
    assert confirming(claim, [ScbPayment("T1", 100_00, "REF1", "111")], biller) is None
    assert confirming(claim, [], biller) is None


def test_production_refuses_scb_without_its_settings() -> None:
    settings = Settings(
        sandbox=False,
        bank_api="scb",
        bank_webhook_secret="a",
        gateway_ww_secret="b",
        gateway_paytimz_secret="c",
        gateway_payonex_secret="d",
        game_provider_key="e",
        scb_api_key="l7xx-secret-key",
    )
    with pytest.raises(RuntimeError) as refused:
        settings.require_third_party_secrets()
    message = str(refused.value)
    assert "PAO_BANK_API=scb" in message
    assert "PAO_SCB_API_SECRET" in message
    assert "PAO_SCB_BILLER_ID" in message
    assert "l7xx-secret-key" not in message
    complete = settings.model_copy(
        update={
            "scb_api_secret": SETTINGS.scb_api_secret,
            "scb_biller_id": "925244165291982",
            "scb_ref3_prefix": "YQH",
        }
    )
    complete.require_third_party_secrets()
    sandbox = Settings(sandbox=True, bank_api="scb")
    assert (len(sandbox.scb_biller_id), len(sandbox.scb_ref3_prefix)) == (15, 3)


async def test_no_credential_in_logs_or_errors() -> None:
    secrets = ("l7xx-scb-key", "scb-secret-0001", "tok-1")

    async def run(api: ScbQrApi) -> list[ScbPayment]:
        return await api.inquire(ref1="R", day=date(2021, 2, 24))

    refused = httpx.Response(500, json={"status": {"code": 9999}, "error": "l7xx-scb-key"})
    with capture_logs() as logs:
        result, _ = await _call([refused], run)
        create, _ = await _call(
            [refused],
            lambda api: api.create_qr(ref1="Q1", amount=100, expires_at=datetime.now(UTC)),
        )
    assert isinstance(result, ScbQrUnavailable)
    assert isinstance(create, ScbQrUnavailable)
    # (A logger cached by an earlier test in this process escapes capture_logs: the errors'
    # texts are checked whatever it caught.)
    text = repr(logs) + str(result) + str(create)
    assert not [secret for secret in secrets if secret in text]
