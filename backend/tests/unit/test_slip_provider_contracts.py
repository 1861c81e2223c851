"""Each slip provider's adapter pinned to its documented wire format (providers.md §4, §6):
the request it sends, and every documented answer mapped into Pao's verdicts (a transfer,
no such transfer, a refusal with a reason, or unknown), with ``httpx.MockTransport``."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from pao.core.settings import Settings
from pao.payments.scb.oauth import MemoryTokenCache, ScbOAuth
from pao.payments.slips.models import SlipReason
from pao.payments.slips.port import SlipQuery, SlipRefused, VerifierUnavailable
from pao.payments.slips.providers.easyslip import EasySlipVerifier
from pao.payments.slips.providers.scb import ScbSlipVerifier
from pao.payments.slips.providers.slipok import SlipOkVerifier

SETTINGS = Settings(
    env="test",
    sandbox=False,
    slipok_branch_id="12345",
    slipok_api_key="SLIPOK-KEY-0001",
    easyslip_api_key="EASY-KEY-0001",
    scb_api_key="l7xx-scb-key",
    scb_api_secret="scb-secret-0001",
)
QUERY = SlipQuery(
    "004",
    "016107105535ATF08702",
    payload="0041000600000101030040220016107105535ATF087025102TH9104A1B2",
)

# SlipOK's documented success (providers.md §4b [S1]): names and accounts masked.
SLIPOK_DATA: dict[str, Any] = {
    "success": True,
    "message": "✅",
    "rqUID": "730_20230418_1700ChdFpS",
    "language": "TH",
    "transRef": "016107105535ATF08702",
    "sendingBank": "004",
    "receivingBank": "014",
    "transDate": "20230418",
    "transTime": "17:00:31",
    "transTimestamp": "2023-04-18T10:00:31.000Z",
    "sender": {
        "displayName": "นาย สมชาย ม",
        "name": "Mr. Somchai M",
        "proxy": {"type": None, "value": None},
        "account": {"type": "BANKAC", "value": "xxx-x-x5678-x"},
    },
    "receiver": {
        "displayName": "บจก. เปา",
        "name": "PAO CO LTD",
        "proxy": {"type": None, "value": None},
        "account": {"type": "BANKAC", "value": "xxx-x-x2223-x"},
    },
    "amount": 1000.5,
    "paidLocalAmount": 1000.5,
    "paidLocalCurrency": "764",
    "countryCode": "TH",
    "transFeeAmount": 0,
    "ref1": "",
    "ref2": "",
    "ref3": "",
    "toMerchantId": "",
}

# EasySlip v2's documented success (§4a [E2]); rawSlip is v1's ``data`` shape [E1].
EASYSLIP_RAW: dict[str, Any] = {
    "payload": QUERY.payload,
    "transRef": "016107105535ATF08702",
    "date": "2023-04-18T17:00:31+07:00",
    "countryCode": "TH",
    "amount": {"amount": 1000.5, "local": {"amount": 0, "currency": ""}},
    "fee": 0,
    "ref1": "",
    "ref2": "",
    "ref3": "",
    "sender": {
        "bank": {"id": "001", "name": "ธนาคารกสิกรไทย", "short": "KBANK"},
        "account": {
            "name": {"th": "นาย สมชาย ม", "en": "MR. SOMCHAI M"},
            "bank": {"type": "BANKAC", "account": "xxx-x-x5678-x"},
        },
    },
    "receiver": {
        "bank": {"id": "014", "name": "ธนาคารไทยพาณิชย์", "short": "SCB"},
        "account": {
            "name": {"th": "บจก. เปา"},
            "bank": {"type": "BANKAC", "account": "xxx-x-x2223-x"},
        },
    },
}

# SCB's slip verification success (§6 [B5]): amount a string.
SCB_DATA: dict[str, Any] = {
    "transRef": "016107105535ATF08702",
    "sendingBank": "004",
    "receivingBank": "014",
    "transDate": "2023-04-18",
    "transTime": "17:00:31",
    "sender": {
        "displayName": "Somchai M",
        "name": "Somchai M",
        "proxy": {"type": "", "value": ""},
        "account": {"type": "BANKAC", "value": "xxx-x-x5678-x"},
    },
    "receiver": {
        "displayName": "PAO CO LTD",
        "name": "PAO CO LTD",
        "proxy": {"type": "", "value": ""},
        "account": {"type": "BANKAC", "value": "xxx-x-x2223-x"},
    },
    "amount": "1000.50",
    "paidLocalAmount": "1000.50",
    "paidLocalCurrency": "764",
    "countryCode": "TH",
    "ref1": "",
    "ref2": "",
    "ref3": "",
}
SCB_TOKEN = {
    "status": {"code": 1000, "description": "Success"},
    "data": {
        "accessToken": "7a8b9c-token",
        "tokenType": "Bearer",
        "expiresIn": 1800,
        "expiresAt": 1681813231,
    },
}
WHEN = datetime(2023, 4, 18, 10, 0, 31, tzinfo=UTC)


def _http(handler: Any) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.MockTransport(handler))


async def _slipok(status: int, body: Any) -> Any:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, json=body)

    async with _http(handler) as http:
        try:
            return await SlipOkVerifier(http, SETTINGS).lookup(QUERY), seen
        except (SlipRefused, VerifierUnavailable) as exc:
            return exc, seen


async def test_slipok_request_and_success() -> None:
    found, seen = await _slipok(200, {"success": True, "data": SLIPOK_DATA})

    request = seen[0]
    assert request.method == "POST"
    assert str(request.url) == "https://api.slipok.com/api/line/apikey/12345"
    assert request.headers["x-authorization"] == "SLIPOK-KEY-0001"
    assert json.loads(request.content) == {"data": QUERY.payload, "log": True}
    assert found.reference == "016107105535ATF08702"
    assert found.sending_bank == "004"
    assert (found.amount, found.currency, found.transferred_at) == (1000_50, "THB", WHEN)
    assert (found.sender_bank, found.sender_account) == ("KBANK", "xxx-x-x5678-x")
    assert (found.receiver_bank, found.receiver_account) == ("SCB", "xxx-x-x2223-x")


@pytest.mark.parametrize(
    ("code", "reason", "review"),
    [
        (1008, SlipReason.INVALID_SLIP, False),
        (1011, SlipReason.INVALID_SLIP, False),
        (1013, SlipReason.INVALID_SLIP, False),
        (1014, SlipReason.DEST_ACC_INVALID, False),
    ],
)
async def test_slipok_refusals(code: int, reason: SlipReason, review: bool) -> None:
    answer, _ = await _slipok(400, {"code": code, "message": "ข้อความ"})
    assert isinstance(answer, SlipRefused)
    assert (answer.reason, answer.review, answer.answer) == (reason, review, f"slipok:{code}")


async def test_slipok_duplicate_keeps_the_slip_and_opens_review() -> None:
    body = {"code": 1012, "message": "สลิปซ้ำ", "data": SLIPOK_DATA}
    answer, _ = await _slipok(400, body)
    assert isinstance(answer, SlipRefused)
    assert (answer.reason, answer.review) == (SlipReason.SLIP_REFNO_DUPLICATED, True)
    assert answer.transfer is not None
    assert answer.transfer.amount == 1000_50


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (400, {"code": 1010, "message": "รอ", "data": {"bankCode": "004", "delay": 2}}),
        (400, {"code": 1009, "message": "bank down"}),
        (400, {"code": 1004, "message": "quota"}),
        (400, {"code": 1003, "message": "package expired"}),
        (401, {"code": 1002, "message": "bad key"}),
        (400, {"code": 1001, "message": "branch"}),
        (400, {"code": 1007, "message": "no QR"}),
        (400, {"code": 1099, "message": "a code nobody documented"}),
        (400, {"code": "1012", "message": "a code that is not a number"}),
        (200, {"success": True, "data": {**SLIPOK_DATA, "success": False}}),
        (200, {"success": True, "data": {**SLIPOK_DATA, "amount": "many"}}),
        (200, {"success": True, "data": {**SLIPOK_DATA, "paidLocalCurrency": "840"}}),
        (200, {"success": True}),
        (502, "<html>Bad gateway</html>"),
    ],
)
async def test_slipok_unknowns(status: int, body: Any) -> None:
    answer, _ = await _slipok(status, body)
    assert isinstance(answer, VerifierUnavailable)


async def test_slipok_without_the_qr_text_is_unknown() -> None:
    async with _http(lambda _: httpx.Response(200, json={})) as http:
        with pytest.raises(VerifierUnavailable):
            await SlipOkVerifier(http, SETTINGS).lookup(SlipQuery("004", "X1"))


async def _easyslip(status: int, body: Any) -> Any:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(status, json=body)

    async with _http(handler) as http:
        try:
            return await EasySlipVerifier(http, SETTINGS).lookup(QUERY), seen
        except (SlipRefused, VerifierUnavailable) as exc:
            return exc, seen


def _easy_ok(duplicate: bool) -> dict[str, Any]:
    data = {
        "isDuplicate": duplicate,
        "matchedAccount": None,
        "amountInSlip": 1000.5,
        "rawSlip": EASYSLIP_RAW,
    }
    return {"success": True, "message": "Verified", "data": data}


async def test_easyslip_request_and_success() -> None:
    found, seen = await _easyslip(200, _easy_ok(False))

    request = seen[0]
    assert str(request.url) == "https://api.easyslip.com/v2/verify/bank"
    assert request.headers["authorization"] == "Bearer EASY-KEY-0001"
    assert json.loads(request.content) == {"payload": QUERY.payload, "checkDuplicate": True}
    assert (found.reference, found.sending_bank) == ("016107105535ATF08702", "004")
    assert (found.amount, found.currency, found.transferred_at) == (1000_50, "THB", WHEN)
    # Banks by short name: the inconsistent bank.id ("001" for KBANK) is not read.
    assert (found.sender_bank, found.sender_account) == ("KBANK", "xxx-x-x5678-x")
    assert (found.receiver_bank, found.receiver_account) == ("SCB", "xxx-x-x2223-x")


async def test_easyslip_duplicate_opens_review() -> None:
    answer, _ = await _easyslip(200, _easy_ok(True))
    assert isinstance(answer, SlipRefused)
    assert (answer.reason, answer.review) == (SlipReason.SLIP_REFNO_DUPLICATED, True)
    assert answer.transfer is not None


async def test_easyslip_slip_not_found() -> None:
    body = {"success": False, "error": {"code": "SLIP_NOT_FOUND", "message": "Slip not found"}}
    answer, _ = await _easyslip(404, body)
    assert answer is None


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (403, "QUOTA_EXCEEDED"),
        (500, "API_SERVER_ERROR"),
        (500, "INTERNAL_SERVER_ERROR"),
        (401, "MISSING_API_KEY"),
        (401, "INVALID_API_KEY"),
        (403, "BRANCH_INACTIVE"),
        (403, "SERVICE_BANNED"),
        (403, "SERVICE_DELETED"),
        (403, "IP_NOT_ALLOWED"),
        (400, "VALIDATION_ERROR"),
        (404, "NOT_FOUND"),
        (418, "SOMETHING_NEW"),
    ],
)
async def test_easyslip_unknowns(status: int, code: str) -> None:
    body = {"success": False, "error": {"code": code, "message": "..."}}
    answer, _ = await _easyslip(status, body)
    assert isinstance(answer, VerifierUnavailable)


@pytest.mark.parametrize(
    "body",
    [
        {"success": True, "data": {"rawSlip": EASYSLIP_RAW}},  # no isDuplicate
        {
            "success": True,
            "data": {
                "isDuplicate": False,
                "rawSlip": {**EASYSLIP_RAW, "date": "2023-04-18T17:00:31"},
            },
        },
        {
            "success": True,
            "data": {
                "isDuplicate": False,
                "rawSlip": {**EASYSLIP_RAW, "amount": {"amount": 1.005}},
            },
        },
        {
            "success": True,
            "data": {
                "isDuplicate": False,
                "rawSlip": {**EASYSLIP_RAW, "amount": {"amount": 1, "local": {"currency": "USD"}}},
            },
        },
        ["not", "an", "object"],
    ],
)
async def test_easyslip_garbled_success_is_unknown(body: Any) -> None:
    answer, _ = await _easyslip(200, body)
    assert isinstance(answer, VerifierUnavailable)


def _scb_handler(answers: list[httpx.Response], seen: list[httpx.Request]) -> Any:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/v1/oauth/token"):
            return httpx.Response(200, json=SCB_TOKEN)
        return answers.pop(0)

    return handler


async def _scb(*answers: httpx.Response) -> tuple[Any, list[httpx.Request]]:
    seen: list[httpx.Request] = []
    async with _http(_scb_handler(list(answers), seen)) as http:
        oauth = ScbOAuth(http, SETTINGS, MemoryTokenCache())
        try:
            return await ScbSlipVerifier(http, SETTINGS, oauth).lookup(QUERY), seen
        except (SlipRefused, VerifierUnavailable) as exc:
            return exc, seen


async def test_scb_token_then_slip() -> None:
    found, seen = await _scb(
        httpx.Response(
            200, json={"status": {"code": 1000, "description": "Success"}, "data": SCB_DATA}
        )
    )
    token, slip = seen
    assert str(token.url) == "https://api.partners.scb/partners/v1/oauth/token"
    assert token.headers["resourceOwnerId"] == "l7xx-scb-key"
    assert token.headers["accept-language"] == "EN"
    assert len(token.headers["requestUId"]) == 32
    assert json.loads(token.content) == {
        "applicationKey": "l7xx-scb-key",
        "applicationSecret": "scb-secret-0001",
    }
    assert slip.method == "GET"
    assert str(slip.url) == (
        "https://api.partners.scb/partners/v1/payment/billpayment/transactions/"
        "016107105535ATF08702?sendingBank=004"
    )
    assert slip.headers["authorization"] == "Bearer 7a8b9c-token"
    assert slip.headers["resourceOwnerId"] == "l7xx-scb-key"
    assert (found.amount, found.currency, found.transferred_at) == (1000_50, "THB", WHEN)
    assert (found.sender_bank, found.receiver_bank) == ("KBANK", "SCB")


@pytest.mark.parametrize(
    "answer",
    [
        httpx.Response(404, json={"status": {"code": 4101, "description": "not found"}}),
        httpx.Response(200, json={"status": {"code": 9300, "description": "?"}, "data": SCB_DATA}),
        httpx.Response(200, json={"status": {"code": 1000}, "data": None}),
        httpx.Response(
            200, json={"status": {"code": 1000}, "data": {**SCB_DATA, "amount": "1,000"}}
        ),
        httpx.Response(200, json={"status": {"code": 1000}, "data": {**SCB_DATA, "transDate": ""}}),
        httpx.Response(429, text="Too Many Requests"),
        httpx.Response(503, text="<html></html>"),
    ],
)
async def test_scb_anything_but_1000_is_unknown(answer: httpx.Response) -> None:
    result, _ = await _scb(answer)
    assert isinstance(result, VerifierUnavailable)


async def test_scb_401_renews_the_token_once() -> None:
    ok = {"status": {"code": 1000, "description": "Success"}, "data": SCB_DATA}
    found, seen = await _scb(httpx.Response(401, json={}), httpx.Response(200, json=ok))
    paths = [r.url.path.rsplit("/", 1)[-1] for r in seen]
    assert paths == ["token", "016107105535ATF08702", "token", "016107105535ATF08702"]
    assert found.amount == 1000_50

    result, seen = await _scb(httpx.Response(401, json={}), httpx.Response(401, json={}))
    assert isinstance(result, VerifierUnavailable)
    assert len(seen) == 4


async def test_no_secret_in_an_unknown_answer() -> None:
    answer, _ = await _slipok(401, {"code": 1002, "message": "bad key"})
    assert "SLIPOK-KEY-0001" not in str(answer)
    result, _ = await _scb(httpx.Response(503, text="down"))
    assert "scb-secret-0001" not in str(result)
