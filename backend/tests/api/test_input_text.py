"""Control characters are refused at the edge, for every route (issue 15, finding 2).

A NUL byte in a text input used to reach PostgreSQL (which cannot store it in ``text``) and
answer 500. Each test runs on SQLite and PostgreSQL; none may answer 5xx.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi import FastAPI, params
from fastapi.dependencies.utils import get_flat_params
from fastapi.routing import APIRoute, iter_route_contexts
from sqlalchemy import func, select

from pao.core.settings import REPO_ROOT, Settings
from pao.main import create_app
from pao.support.models import ChatMessage
from tests.chat_media import PNG
from tests.helpers import auth, register_and_login, registration_payload, set_site_setting

CATALOGUE: frozenset[str] = frozenset(
    code
    for section in json.loads((REPO_ROOT / "frontend/src/lib/error-codes.json").read_text())[
        "errorMsg"
    ].values()
    for code in section
)
NUL = "\x00"


def assert_refused(response: httpx.Response, field: str | None) -> None:
    """422 KEY_INVALID naming ``field``, or 400 KEY_INVALID when no field can be named."""
    assert response.status_code < 500, response.text
    body = response.json()
    assert body["message"] in CATALOGUE, body
    if field is None:
        assert (response.status_code, body) == (400, {"message": "KEY_INVALID"}), body
    else:
        assert response.status_code == 422, body
        assert body == {"message": "KEY_INVALID", "field": field}


# ----- every string input of a sample of routes ---------------------------------------------


@dataclass(frozen=True)
class Sample:
    method: str
    path: str
    body: dict[str, Any]
    # Dotted paths of the body's string inputs (all of them).
    strings: tuple[str, ...]
    member: bool = False
    guest: bool = False
    setup: Callable[[httpx.AsyncClient], Awaitable[None]] | None = field(default=None)


async def _open_chat(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "enableChatWidget", True)


REGISTRATION = registration_payload(phone="0891234567", sourceCode="FB", inviteCode="PR1")
SAMPLES = {
    "login": Sample(
        "POST", "/api/login", {"username": "0812345678", "password": "pw"}, ("username", "password")
    ),
    "registration": Sample(
        "POST",
        "/api/account",
        REGISTRATION,
        (
            "name",
            "username",
            "password",
            "bankCode",
            "bankAccountName",
            "bankAccountNo",
            "sourceCode",
            "inviteCode",
        ),
    ),
    "registration-check": Sample(
        "POST", "/api/account/validate", REGISTRATION, ("name", "username", "password")
    ),
    "otp-send": Sample("POST", "/api/otp/send", {"phoneNumber": "0891234567"}, ("phoneNumber",)),
    "otp-verify": Sample(
        "POST",
        "/api/otp/verify",
        {"otpToken": "t" * 20, "otpCode": "123456"},
        ("otpToken", "otpCode"),
    ),
    "chat-message": Sample(
        "POST",
        "/api/chat/send-message",
        {
            "message": {"message_type": "text", "payload": "hello"},
            "name": "Guest",
            "session_id": "s1",
            "clientId": "c1",
        },
        ("message.payload", "name", "session_id", "clientId"),
        guest=True,
        setup=_open_chat,
    ),
    "coupon": Sample(
        "POST", "/api/spinwheel/coupon/claim", {"coupon": "ABC123"}, ("coupon",), member=True
    ),
    "profile": Sample(
        "PUT",
        "/api/account/profile",
        {
            "name": "Somchai",
            "bankCode": "KBANK",
            "bankAccountName": "SOMCHAI",
            "bankAccountNo": "1234567890",
        },
        ("name", "bankCode", "bankAccountName", "bankAccountNo"),
        member=True,
    ),
    "password": Sample(
        "PUT",
        "/api/account/changepwd",
        {"oldPassword": "secret123", "newPassword": "secret456"},
        ("oldPassword", "newPassword"),
        member=True,
    ),
    "truelink": Sample(
        "POST",
        "/api/wallet/truelink",
        {"link": "https://gift.truemoney.com/campaign/?v=abc"},
        ("link",),
        member=True,
    ),
    "staff-login": Sample(
        "POST",
        "/api/backoffice/auth/login",
        {"login": "ann", "password": "pw"},
        ("login", "password"),
    ),
}


def _with(body: dict[str, Any], dotted: str, suffix: str) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(body))
    *parents, last = dotted.split(".")
    target = copy
    for name in parents:
        target = target[name]
    target[last] = f"{target[last]}{suffix}"
    return copy


@pytest.mark.parametrize("name", sorted(SAMPLES))
async def test_a_nul_in_any_string_input_is_refused(client: httpx.AsyncClient, name: str) -> None:
    sample = SAMPLES[name]
    headers: dict[str, str] = {}
    if sample.member:
        _, token = await register_and_login(client)
        headers = auth(token)
    if sample.guest:
        headers = {"X-Guest-Id": str(uuid.uuid4())}
    if sample.setup is not None:
        await sample.setup(client)
    for dotted in sample.strings:
        for where in ("a\x00", f"a{NUL}b"):
            body = _with(sample.body, dotted, where)
            response = await client.request(sample.method, sample.path, json=body, headers=headers)
            assert_refused(response, dotted)


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/promotion/find/{}", "code"),
        ("/api/bonus/activate/{}", "code"),
        ("/api/statement/slip/reference/{}", "reference"),
        ("/api/wallet/account/{}", "code"),
        ("/api/autoLogin/imi/{}/pw", "username"),
        ("/api/chat/media/{}", "key"),
    ],
)
async def test_a_nul_in_a_path_segment_is_refused(
    client: httpx.AsyncClient, path: str, field: str
) -> None:
    _, token = await register_and_login(client)
    response = await client.get(path.format("AB%00C"), headers=auth(token))
    assert_refused(response, field)


async def test_a_control_character_in_the_query_is_refused(client: httpx.AsyncClient) -> None:
    for value in ("th\x00", "th\t", "th\n", "th\x7f", "th\x1b"):
        response = await client.get("/api/lookup/contact", params={"lang": value})
        assert_refused(response, "lang")
    # The same in the parameter's name, which cannot be named back: 400.
    response = await client.get("/api/lookup/contact?la%00ng=th")
    assert_refused(response, None)


# ----- what counts as a control character in a JSON body -----------------------------------


async def _send_raw(client: httpx.AsyncClient, raw: bytes) -> httpx.Response:
    return await client.post(
        "/api/login", content=raw, headers={"Content-Type": "application/json"}
    )


@pytest.mark.parametrize(
    "escaped",
    [
        r"\u0000",
        r"\u001f",
        r"\u001F",
        r"\u0007",
        r"\u000b",
        r"\u007f",
        r"\b",
        r"\f",
        r"\\\u0000",  # an escaped backslash, then an escaped NUL
        r"\ud800",  # a lone surrogate: no database can store it either
        r"\udc00x",
    ],
)
async def test_escaped_control_characters_are_refused(
    client: httpx.AsyncClient, escaped: str
) -> None:
    raw = b'{"username": "0812345678", "password": "pw' + escaped.encode() + b'"}'
    assert_refused(await _send_raw(client, raw), "password")


@pytest.mark.parametrize(
    "text",
    [
        r"\\u0000",  # a backslash, then the text u0000: a password may be that
        r"\\\\u0000",
        r"\t\n\r",
        r"\u0009\u000a\u000D",
        r"\ud83d\ude00",  # an emoji as a surrogate pair
        "%00",
    ],
)
async def test_text_that_only_looks_like_a_control_character_passes(
    client: httpx.AsyncClient, text: str
) -> None:
    raw = b'{"username": "0812345678", "password": "pw' + text.encode() + b'"}'
    response = await _send_raw(client, raw)
    # It reached the login, which does not know the member.
    assert response.status_code == 401, response.text


async def test_a_raw_control_byte_in_a_json_body_is_refused(client: httpx.AsyncClient) -> None:
    # Not valid JSON (control characters must be escaped), so no field can be named.
    assert_refused(await _send_raw(client, b'{"username": "08\x00", "password": "pw"}'), None)
    assert_refused(await _send_raw(client, b'{"username": "08\x01", "password": "pw"}'), None)
    # DEL may stand unescaped in a JSON string: the field is named.
    assert_refused(await _send_raw(client, b'{"username": "08\x7f", "password": "pw"}'), "username")
    # Pretty-printed JSON (tabs, line breaks between tokens) is fine.
    response = await _send_raw(client, b'{\n\t"username": "0812345678",\r\n\t"password": "pw"\n}')
    assert response.status_code == 401, response.text


async def test_line_breaks_and_tabs_are_kept_in_a_chat_message(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    text = "line one\nline two\r\n\tindented"
    response = await client.post(
        "/api/chat/send-message",
        json={"message": {"message_type": "text", "payload": text}},
        headers={"X-Guest-Id": str(uuid.uuid4())},
    )
    assert response.status_code == 200, response.text
    async with app.state.sessionmaker() as session:
        assert await session.scalar(select(func.count()).select_from(ChatMessage)) == 1


async def test_nested_and_listed_strings_are_named(client: httpx.AsyncClient) -> None:
    login = await client.post(
        "/api/backoffice/auth/login", json={"login": ["a", {"deep": "b\x00"}], "password": "pw"}
    )
    assert_refused(login, "login.1.deep")
    key = await client.post(
        "/api/backoffice/auth/login", json={"user\x00name": "a", "password": "pw"}
    )
    assert_refused(key, "user\x00name")


# ----- forms -----------------------------------------------------------------------------


async def test_urlencoded_and_multipart_text_fields_are_refused(client: httpx.AsyncClient) -> None:
    path = "/sandbox/games/login/imi"
    urlencoded = await client.post(path, data={"username": "ann", "password": "p\x00w"})
    assert_refused(urlencoded, "password")
    encoded_by_hand = await client.post(
        path,
        content=b"username=a%1bn&password=pw",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert_refused(encoded_by_hand, "username")
    multipart = await client.post(
        path,
        data={"username": "ann\x00", "password": "pw"},
        files={"unused": ("a.txt", b"\x00binary content is not text\x00", "text/plain")},
    )
    assert_refused(multipart, "username")
    # A form that is fine still reaches the route (the sandbox's login page answers it).
    fine = await client.post(path, data={"username": "ann", "password": "pw"})
    assert fine.status_code < 500
    assert fine.status_code not in (400, 422), fine.text


async def test_a_control_character_in_an_upload_s_file_name_is_refused(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    png = PNG  # a real image: a chat image is decoded when stored
    response = await client.post(
        "/api/chat/upload-image",
        files={"file": ("a\x1b.png", png, "image/png")},
        headers={"X-Guest-Id": str(uuid.uuid4())},
    )
    assert_refused(response, "file")
    ok = await client.post(
        "/api/chat/upload-image",
        files={"file": ("a.png", png, "image/png")},
        headers={"X-Guest-Id": str(uuid.uuid4())},
    )
    assert ok.status_code == 200, ok.text


# ----- every route: a NUL in each path and query parameter -------------------------------


def _walk_app() -> FastAPI:
    # Built like the test fixture's app (sandbox on, no built SPA), never started.
    nowhere = Path("/nonexistent-pao-route-walk")
    return create_app(Settings(sandbox=True, data_dir=nowhere, static_dir=nowhere))


def _route_parameters() -> list[tuple[str, str, str, str]]:
    """(method, path template, parameter, "path" | "query") for every route's parameters."""
    cases: list[tuple[str, str, str, str]] = []
    for context in iter_route_contexts(_walk_app().routes):
        route = context.original_route
        if not isinstance(route, APIRoute):
            continue
        method = sorted(context.methods or {"GET"})[0]
        template = str(context.path_format)
        for param in get_flat_params(context.dependant):
            if isinstance(param.field_info, params.Path):
                cases.append((method, template, param.alias, "path"))
            elif not isinstance(param.field_info, (params.Header, params.Cookie)):
                cases.append((method, template, param.alias, "query"))
    return cases


ROUTE_PARAMETERS = _route_parameters()
# Each template's path parameters (the others are filled with a harmless value).
ROUTE_PATH_PARAMS: dict[str, tuple[str, ...]] = {}
for _method, _template, _name, _kind in ROUTE_PARAMETERS:
    if _kind == "path":
        ROUTE_PATH_PARAMS[_template] = (*ROUTE_PATH_PARAMS.get(_template, ()), _name)


def test_the_walk_covers_the_routes_with_parameters() -> None:
    kinds = {kind for *_, kind in ROUTE_PARAMETERS}
    assert kinds == {"path", "query"}
    assert len(ROUTE_PARAMETERS) > 60


@pytest.mark.parametrize(
    ("method", "template", "name", "kind"),
    ROUTE_PARAMETERS,
    ids=[f"{m} {t} {n}" for m, t, n, _ in ROUTE_PARAMETERS],
)
async def test_every_path_and_query_parameter_refuses_a_nul(
    client: httpx.AsyncClient, method: str, template: str, name: str, kind: str
) -> None:
    path = template
    for other in ROUTE_PATH_PARAMS.get(template, ()):
        value = "a%00b" if (kind == "path" and other == name) else "1"
        path = path.replace("{" + other + "}", value)
    query = f"?{quote(name)}=a%00b" if kind == "query" else ""
    response = await client.request(method, path + query)
    assert_refused(response, name)


async def test_mounted_apps_and_unknown_paths_refuse_it_too(client: httpx.AsyncClient) -> None:
    for path in ("/socket.io/a%00b", "/api/no-such%00route", "/healthz%00"):
        assert_refused(await client.get(path), None)
    assert_refused(await client.get("/socket.io/?EIO=4&transport=polling&t=a%00"), "t")
