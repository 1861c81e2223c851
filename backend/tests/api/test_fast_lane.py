"""The fast lane (``pao.core.fast_lane``, ADR 0033 step 2) answers the aggregators'
callbacks as FastAPI's router does, and inside every guarantee of the middleware stack: the
same answers (Hub88's exact paths, AMB's templated one), the security headers, the edge's body
limit, the site's termination, a 500 for an unexpected error, the request metrics by route;
and it takes nothing else (another method, another path)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from pao.core import metrics
from pao.core.fast_lane import FastLane
from pao.games.seamless import core
from pao.games.seamless.hub88.signature import sign
from pao.site.termination import invalidate_termination_cache
from pao.support.socket import ChatHub
from tests.api.test_seamless_amb import _amb
from tests.api.test_seamless_hub88 import KEY, _player
from tests.api.test_security_headers import assert_api_headers
from tests.api.test_slips import balance as slip_balance
from tests.api.test_slips import bank_transfer, open_slips, slip_of
from tests.api.test_slips import member as slip_member
from tests.games_support import activate, funded_member, wallet_minor
from tests.games_support import seed as games_seed
from tests.helpers import set_site_setting

BET = "/api/hub88/transaction/bet"


@pytest.fixture
def lane_taken(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the lane answered (a spy on its match)."""
    taken: list[str] = []
    real = FastLane._match

    def match(self: FastLane, path: str) -> Any:
        found = real(self, path)
        if found is not None:
            taken.append(path)
        return found

    monkeypatch.setattr(FastLane, "_match", match)
    return taken


def _signed(body: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    raw = json.dumps(body).encode()
    return raw, {"Content-Type": "application/json", "X-Hub88-Signature": sign(KEY, raw)}


async def test_hub88_and_amb_answer_as_through_the_router(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch, lane_taken: list[str]
) -> None:
    async def scenario() -> list[Any]:
        player = await _player(client, 100_00)
        body = player.txn(10)
        answers = [await player.call("/transaction/bet", body), await player.win(body, 25)]
        answers.append(await player.call("/transaction/bet", body))  # a replay
        amb = await _amb(client, 100_00)
        bet = amb.txn("OPEN", 1)
        answers.append(await amb.call("placeBets", amb.envelope(bet)))
        answers.append(await amb.call("placeBets", amb.envelope(bet)))  # the duplicate rule
        # What differs per member and call, not per path taken.
        for answer in answers:
            for key in ("user", "request_uuid", "username", "id", "timestampMillis"):
                answer.pop(key, None)
        return answers

    through_lane = await scenario()
    assert len(lane_taken) == 5
    assert lane_taken[-1] == "/api/amb/pgsoft/placeBets"
    monkeypatch.setattr(FastLane, "_match", lambda self, path: None)
    assert await scenario() == through_lane


async def test_the_stacks_guarantees_hold_in_the_lane(
    client: httpx.AsyncClient, lane_taken: list[str]
) -> None:
    player = await _player(client, 100_00)
    raw, headers = _signed(player.txn(10))
    answer = await client.post(BET, content=raw, headers=headers)
    assert answer.status_code == 200
    assert_api_headers(answer)
    # The edge bounds the body before anything reads it (the lane never saw it).
    oversized = await client.post(BET, content=b"{" + b" " * (70 * 1024) + b"}", headers=headers)
    assert oversized.status_code == 413
    assert lane_taken == [BET]
    # A terminated site takes no callback either.
    await set_site_setting(client, "terminated", True)
    invalidate_termination_cache()
    gone = await client.post(BET, content=raw, headers=headers)
    assert gone.status_code == 410
    assert_api_headers(gone)
    assert lane_taken == [BET]


async def test_an_unexpected_error_is_a_500_and_counted_by_route(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, lane_taken: list[str]
) -> None:
    async def broken(*_args: Any) -> core.Outcome:
        raise RuntimeError("a defect")

    monkeypatch.setattr(core, "play", broken)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        player = await _player(client, 100_00)
        raw, headers = _signed(player.txn(10))
        before = _requests(BET, "500")
        answer = await client.post(BET, content=raw, headers=headers)
    assert answer.status_code == 500
    assert answer.json()["message"] == "INTERNAL_SERVER_ERROR"
    assert lane_taken == [BET]
    assert _requests(BET, "500") == before + 1


def _requests(route: str, status: str) -> float:
    value = metrics.HTTP_REQUESTS.labels("POST", route, status)._value.get()
    return float(value)


async def test_other_methods_and_paths_go_on_to_the_app(
    client: httpx.AsyncClient, lane_taken: list[str]
) -> None:
    calls: list[Callable[[], Awaitable[httpx.Response]]] = [
        lambda: client.get(BET),
        lambda: client.post("/api/hub88/transaction/bets", json={}),
        lambda: client.post("/api/amb/pgsoft/extra/placeBets", json={}),
    ]
    assert [(await call()).status_code for call in calls] == [405, 404, 404]
    assert lane_taken == []


def _lane_of(app: FastAPI) -> FastLane:
    layer: Any = app.middleware_stack
    while not isinstance(layer, FastLane):
        layer = layer.app
    return layer


async def test_the_wallet_read_answers_as_through_the_router(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """GET /api/wallet, given to the lane with its lean endpoint (pao.wallet.router.
    wallet_read): the same status, body and headers as the documented route's, for a member
    and for every refusal (no token, another scheme, an unknown token, a revoked login)."""
    token, _ = await funded_member(client, 12_34)
    revoked, _ = await funded_member(client, 0)
    await client.post("/api/logout", headers={"Authorization": f"Bearer {revoked}"})
    tries = [
        {"Authorization": f"Bearer {token}"},
        {"Authorization": f"bearer {token}"},
        {},
        {"Authorization": f"Basic {token}"},
        {"Authorization": "Bearer "},
        {"Authorization": "Bearer nope"},
        {"Authorization": f"Bearer {revoked}"},
    ]

    async def answers() -> list[tuple[int, Any, dict[str, str]]]:
        found = []
        for headers in tries:
            response = await client.get("/api/wallet", headers=headers)
            kept = {k: v for k, v in response.headers.items() if k != "date"}
            found.append((response.status_code, response.json(), kept))
        return found

    taken = _spy_on_lean(app, ("GET", "/api/wallet"))
    through_lane = await answers()
    assert len(taken) == len(tries)
    assert [status for status, _, _ in through_lane] == [200, 200, 401, 401, 401, 401, 401]
    _lane_of(app)._lean.clear()
    assert await answers() == through_lane


def _spy_on_lean(app: FastAPI, *routes: tuple[str, str]) -> list[Any]:
    """What the lean endpoints of ``routes`` answered (None: left to FastAPI), in order."""
    lane = _lane_of(app)
    answered: list[Any] = []
    for method_and_path in routes:
        route, endpoint = lane._lean[method_and_path]

        async def spy(request: Any, endpoint: Any = endpoint) -> Any:
            response = await endpoint(request)
            answered.append(None if response is None else response.status_code)
            return response

        lane._lean[method_and_path] = (route, spy)
    return answered


@pytest.mark.sqlite
async def test_the_withdrawal_answers_as_through_the_router(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """POST /api/wallet/withdraw and /withdrawAll, given to the lane with their lean endpoint
    (pao.wallet.router.withdraw_lean): the same status, body and headers as the documented
    routes', and the same money moved, for a withdrawal, its replays (on either path), a key
    reused with another amount, every kind of refusal, and the bodies the lean endpoint leaves
    to FastAPI (not JSON, another or no content type, not the model's)."""

    async def answers() -> list[tuple[int, Any, dict[str, str]]]:
        token, _ = await funded_member(client, 1_000_00)
        short, _ = await funded_member(client, 10_00)
        member = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        key = {"Idempotency-Key": "k-1"}
        tries: list[tuple[str, dict[str, str], bytes]] = [
            ("withdraw", {**member, **key}, b'{"amount": 150}'),
            ("withdraw", {**member, **key}, b'{"amount": 150}'),
            ("withdrawAll", {**member, **key}, b'{"amount": 150}'),
            ("withdraw", {**member, **key}, b'{"amount": 151}'),
            ("withdraw", member, b'{"amount": 0.5}'),
            ("withdraw", member, b'{"amount": 2000}'),
            ("withdraw", {**member, "Authorization": f"Bearer {short}"}, b'{"amount": 100}'),
            ("withdraw", {**member, "Idempotency-Key": "k" * 201}, b'{"amount": 100}'),
            ("withdraw", {"Content-Type": "application/json"}, b'{"amount": 100}'),
            ("withdraw", {**member, "Authorization": "Bearer nope"}, b"{"),
            ("withdraw", member, b'{"amount": true}'),
            ("withdraw", member, b"{}"),
            ("withdraw", member, b"\xff"),
            ("withdraw", {**member, "Content-Type": "text/plain"}, b'{"amount": 100}'),
            ("withdrawAll", {"Authorization": f"Bearer {token}"}, b'{"amount": 100}'),
            ("withdrawAll", member, b'{"amount": 100}'),
            (
                "withdraw",
                {**member, "Content-Type": "Application/JSON; charset=utf-8"},
                b'{"amount": 100}',
            ),
        ]
        found = []
        withdrawals: list[int] = []  # each scenario's own: compared by their order
        for path, headers, body in tries:
            response = await client.post(f"/api/wallet/{path}", headers=headers, content=body)
            kept = {k: v for k, v in response.headers.items() if k != "date"}
            answer = response.json()
            if "withdrawalId" in answer:
                if answer["withdrawalId"] not in withdrawals:
                    withdrawals.append(answer["withdrawalId"])
                answer["withdrawalId"] = withdrawals.index(answer["withdrawalId"])
            found.append((response.status_code, answer, kept))
        wallet = await client.get("/api/wallet", headers={"Authorization": f"Bearer {token}"})
        found.append((wallet.status_code, wallet.json()["wallet"], {}))
        return found

    answered = _spy_on_lean(
        app, ("POST", "/api/wallet/withdraw"), ("POST", "/api/wallet/withdrawAll")
    )
    through_lane = await answers()
    statuses = [status for status, _, _ in through_lane]
    assert statuses[:13] == [200, 200, 200, 409, 400, 400, 400, 422, 401, 400, 422, 422, 400]
    assert statuses[13:] == [415, 415, 200, 200, 200]
    # The lean endpoint answered every request but the six bodies it leaves to FastAPI.
    assert answered == [200, 200, 200, 409, 400, 400, 400, 422, 401, *[None] * 6, 200, 200]
    assert through_lane[-1][1] == {"amount": 650.0, "currency": "THB"}  # 150, 100, 100 held
    _lane_of(app)._lean.clear()
    assert await answers() == through_lane


@pytest.mark.sqlite
async def test_the_transfer_answers_as_through_the_router(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """POST /api/wallet/transfer, given to the lane with its lean endpoint
    (pao.games.router.transfer_lean): the same answers as the documented route's, and the same
    money moved, for wallet → game and back, a replay, a key reused, the refusals (the same
    account, a game without an account, no money, an unknown game, no token) and a body the
    lean endpoint leaves to FastAPI."""
    await games_seed(app)

    async def answers() -> list[tuple[int, Any, dict[str, str]]]:
        token, mid = await funded_member(client, 100_00)
        await activate(client, token, "JOKER")
        member = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        key = {**member, "Idempotency-Key": "t-1"}
        tries: list[tuple[dict[str, str], bytes]] = [
            (key, b'{"from": "WALLET", "to": "JOKER", "amount": 40.5}'),
            (key, b'{"from": "WALLET", "to": "JOKER", "amount": 40.5}'),
            (key, b'{"from": "WALLET", "to": "JOKER", "amount": 41}'),
            (member, b'{"from": "JOKER", "to": "WALLET", "amount": 10}'),
            (member, b'{"from": "WALLET", "to": "WALLET", "amount": 10}'),
            (member, b'{"from": "WALLET", "to": "JOKER", "amount": 1000}'),
            (member, b'{"from": "WALLET", "to": "NOPE", "amount": 1}'),
            (
                {"Content-Type": "application/json"},
                b'{"from": "WALLET", "to": "JOKER", "amount": 1}',
            ),
            (member, b'{"from": "WALLET", "to": "JOKER"}'),
        ]
        found = []
        for headers, body in tries:
            response = await client.post("/api/wallet/transfer", headers=headers, content=body)
            kept = {k: v for k, v in response.headers.items() if k != "date"}
            answer = response.json()
            for moved in answer.get("transfers", []):  # each scenario's own ids
                moved.pop("transferId", None)
            found.append((response.status_code, answer, kept))
        found.append((0, await wallet_minor(app, mid), {}))
        return found

    answered = _spy_on_lean(app, ("POST", "/api/wallet/transfer"))
    through_lane = await answers()
    assert [status for status, _, _ in through_lane] == [
        200,
        200,
        409,
        200,
        400,
        400,
        404,
        401,
        422,
        0,
    ]
    assert answered == [200, 200, 409, 200, 400, 400, 404, 401, None]
    assert through_lane[-1][1] == 69_50
    _lane_of(app)._lean.clear()
    assert await answers() == through_lane


@pytest.mark.sqlite
async def test_a_chat_message_is_answered_and_delivered_as_through_the_router(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """POST /api/chat/send-message, given to the lane with its lean endpoint
    (pao.support.router.send_message_lean): the same status, body and headers as the documented
    route's (its ``Vary`` included), the same messages stored and the same deliveries after the
    answer (the bot's reply too), for a guest, a member, a language asked, and every refusal:
    no credential, a malformed guest id, a body naming another guest, the chat closed; and the
    requests it leaves to FastAPI (an unknown ``lang``, not JSON, another content type, an
    empty message)."""
    delivered: list[tuple[str, str, Any]] = []

    async def deliver(self: ChatHub, *, room: str, customer_view: Any, agent_view: Any) -> None:
        delivered.append((room, customer_view.sender, customer_view.message))

    monkeypatch.setattr(ChatHub, "deliver", deliver)
    await set_site_setting(client, "chatBotEnabled", True)

    async def answers() -> list[Any]:
        await set_site_setting(client, "enableChatWidget", True)
        token, _ = await funded_member(client, 0)
        guest = str(uuid.uuid4())
        as_guest = {"X-Guest-Id": guest, "Content-Type": "application/json"}
        as_member = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        said = json.dumps({"message": {"message_type": "text", "payload": "hello"}}).encode()
        tries: list[tuple[str, dict[str, str], bytes]] = [
            ("", as_guest, said),
            ("", as_guest, said),
            ("?lang=la", {**as_guest, "Accept-Language": "en"}, said),
            ("", {**as_member, "Accept-Language": "th"}, said),
            ("", {"Content-Type": "application/json"}, said),
            ("", {**as_guest, "X-Guest-Id": "not-a-uuid"}, said),
            ("", as_guest, json.dumps({"guestId": str(uuid.uuid4()), "message": {}}).encode()),
            (
                "",
                as_guest,
                json.dumps(
                    {
                        "guestId": str(uuid.uuid4()),
                        "message": {"message_type": "text", "payload": "x"},
                    }
                ).encode(),
            ),
            ("?lang=xx", as_guest, said),
            ("", as_guest, b"{"),
            ("", {**as_guest, "Content-Type": "text/plain"}, said),
            ("", as_guest, b'{"message": {"message_type": "text", "payload": " "}}'),
        ]
        found: list[Any] = []
        for query, headers, body in tries:
            response = await client.post(
                f"/api/chat/send-message{query}", headers=headers, content=body
            )
            kept = {k: v for k, v in response.headers.items() if k != "date"}
            answer = response.json()
            if response.status_code == 200:  # this run's own message: its id and time
                kept.pop("content-length")
                answer = {
                    "_id": answer["_id"].isdigit(),
                    "at": re.sub(r"\d", "0", answer["timestamp"]),
                }
            found.append((response.status_code, answer, kept))
        await set_site_setting(client, "enableChatWidget", False)
        closed = await client.post("/api/chat/send-message", headers=as_guest, content=said)
        found.append((closed.status_code, closed.json(), {}))
        history = await client.post("/api/chat/history", json={}, headers={"X-Guest-Id": guest})
        found.append([(m["sender"], m["message"]) for m in history.json()])
        # Rooms by whose they are (each run's guest and member are its own).
        found.append([(room.endswith(guest), *rest) for room, *rest in delivered])
        delivered.clear()
        return found

    answered = _spy_on_lean(app, ("POST", "/api/chat/send-message"))
    through_lane = await answers()
    statuses = [entry[0] for entry in through_lane[:13]]
    assert statuses == [200, 200, 200, 200, 401, 401, 422, 403, 422, 400, 415, 422, 403]
    assert answered == [200, 200, 200, 200, 401, 401, None, 403, *[None] * 4, 403]
    assert through_lane[0][2]["vary"] == "Accept-Language"
    assert len(through_lane[-2]) == 6  # three messages of the guest's, each answered by the bot
    assert [(guests, sender) for guests, sender, _ in through_lane[-1]] == [
        *[(True, "customer"), (True, "bot")] * 3,
        *[(False, "customer"), (False, "bot")],
    ]
    _lane_of(app)._lean.clear()
    assert await answers() == through_lane


@pytest.mark.sqlite
async def test_a_slip_upload_answers_as_through_the_router(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """POST /api/wallet/slip, given to the lane with its lean endpoint
    (pao.payments.slips.router.upload_lean): the same status, body and headers as the
    documented route's, and the same money credited, for a slip credited, its replay, a key
    reused for another slip, the same slip again, a file that is no image, an empty file, no
    token, a bad key; and the forms it leaves to FastAPI (no file, ``file`` as a text field,
    two files, not a form)."""
    await open_slips(client)

    async def answers() -> list[Any]:
        token, account = await slip_member(client)
        first = await slip_of(client, await bank_transfer(client, from_account=account))
        second = await slip_of(client, await bank_transfer(client, from_account=account))
        member = {"Authorization": f"Bearer {token}"}
        image = {"file": ("slip.png", first, "image/png")}
        tries: list[tuple[dict[str, str], dict[str, Any]]] = [
            ({**member, "Idempotency-Key": "s-1"}, {"files": image}),
            ({**member, "Idempotency-Key": "s-1"}, {"files": image}),
            ({**member, "Idempotency-Key": "s-1"}, {"files": {"file": ("s.png", second)}}),
            (member, {"files": image}),
            (member, {"files": {"file": ("s.png", b"plain text")}}),
            (member, {"files": {"file": ("s.png", b"")}}),
            ({}, {"files": image}),
            ({**member, "Idempotency-Key": "k" * 201}, {"files": image}),
            (member, {"files": {"other": ("s.png", second)}}),
            (member, {"data": {"file": "not a file"}, "files": {"x": ("x.txt", b"x")}}),
            (member, {"files": [("file", ("a.png", second)), ("file", ("b.png", second))]}),
            (member, {"json": {"file": "not a form"}}),
            # The edge refuses a text field with a control character as it streams by.
            (member, {"data": {"note": "a\x00b"}, "files": image}),
        ]
        found: list[Any] = []
        for headers, sent in tries:
            response = await client.post("/api/wallet/slip", headers=headers, **sent)
            # Not compared: the lane reads a form whole before parsing it, so a form FastAPI
            # then refuses was read to its end and its connection need not close.
            unkept = ("date", "content-length", "connection")
            kept = {k: v for k, v in response.headers.items() if k not in unkept}
            answer = response.json()
            slip = answer.pop("slip", None)  # this run's own slip: its id, time, reference
            if slip is not None:
                answer["slip"] = (slip["amount"], slip["status"], slip["note"])
            found.append((response.status_code, answer, kept))
        found.append((0, await slip_balance(client, token), {}))
        return found

    answered = _spy_on_lean(app, ("POST", "/api/wallet/slip"))
    through_lane = await answers()
    statuses = [status for status, _, _ in through_lane]
    assert statuses == [200, 200, 409, 200, 400, 400, 401, 422, 400, 422, 400, 400, 422, 0]
    assert answered == [200, 200, 409, 200, 400, 400, 401, 422, *[None] * 4]
    assert through_lane[0][1]["code"] == "SUCCESS"
    assert through_lane[3][1]["reason"] == "SLIP_REFNO_DUPLICATED"
    assert through_lane[-1][1] == 500.0  # credited once
    _lane_of(app)._lean.clear()
    assert await answers() == through_lane
