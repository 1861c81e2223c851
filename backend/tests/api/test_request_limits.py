"""Every request body is bounded by its route (issue 15, finding 3).

A 100 MB JSON body to /api/login used to be read whole, and a chunked chat upload was read into
memory before its 10 MB check. These tests talk ASGI to the app directly, so that they can
count the bytes the app pulled from the receive channel and send bodies without a
``Content-Length`` (chunked), as a real server delivers them.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.core.errors import BadRequest
from pao.core.request_limits import (
    DEFAULT_BODY_LIMIT,
    MULTIPART_OVERHEAD,
    BodyLimit,
    json_limit,
    resolve_limits,
)
from pao.core.route_table import declared_routes
from pao.core.settings import Settings
from pao.main import BODY_LIMITS, create_app
from pao.support.models import ChatMedia
from pao.support.uploads import MAX_BYTES, MB
from tests.chat_media import PNG, pixels
from tests.helpers import set_site_setting

CHUNK = 64 * 1024
BOUNDARY = "pao-test-boundary"


@dataclass
class Answer:
    status: int
    body: dict[str, Any]
    read: int  # body bytes the app took from the receive channel
    headers: dict[str, str]


async def call(
    app: FastAPI,
    method: str,
    path: str,
    chunks: Iterable[bytes],
    *,
    headers: dict[str, str],
) -> Answer:
    """One request, its body delivered chunk by chunk as the server would."""
    source: Iterator[bytes] = iter(chunks)
    pending = next(source, None)
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal pending, read
        if pending is None:
            return {"type": "http.disconnect"}
        chunk, pending = pending, next(source, None)
        read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": pending is not None}

    sent: list[dict[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("test", 80),
        "extensions": {},
        "state": {},
    }
    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    return Answer(start["status"], json.loads(body), read, headers)


def repeated(total: int, chunk: bytes = b"x" * CHUNK) -> Iterator[bytes]:
    """``total`` bytes in chunks, never all in memory."""
    for _ in range(total // len(chunk)):
        yield chunk


def multipart(head: bytes, file_bytes: int, *, name: str = "a.png") -> Iterator[bytes]:
    """A multipart body with one file part of ``file_bytes`` bytes (``head`` then zeros)."""
    yield (
        f"--{BOUNDARY}\r\n"
        f'Content-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: image/png\r\n\r\n"
    ).encode() + head
    left = file_bytes - len(head)
    zeros = b"\x00" * CHUNK
    while left > 0:
        yield zeros[: min(CHUNK, left)]
        left -= CHUNK
    yield f"\r\n--{BOUNDARY}--\r\n".encode()


MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"
HUNDRED_MB = 100 * 1024 * 1024


async def test_a_100_mb_json_body_is_refused_unread(app: FastAPI) -> None:
    answer = await call(
        app,
        "POST",
        "/api/login",
        repeated(HUNDRED_MB),
        headers={"Content-Type": "application/json", "Content-Length": str(HUNDRED_MB)},
    )
    assert (answer.status, answer.body) == (413, {"message": "PAYLOAD_TOO_LARGE"})
    assert answer.read == 0
    # The server is told not to read on through the rest of it for a next request.
    assert answer.headers["connection"] == "close"


async def test_a_chunked_json_body_is_cut_off_at_the_limit(app: FastAPI) -> None:
    answer = await call(
        app,
        "POST",
        "/api/login",
        repeated(HUNDRED_MB),
        headers={"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    assert (answer.status, answer.body) == (413, {"message": "PAYLOAD_TOO_LARGE"})
    # It stopped at the first chunk past 64 KiB.
    assert DEFAULT_BODY_LIMIT < answer.read <= DEFAULT_BODY_LIMIT + CHUNK


async def test_a_body_within_the_limit_reaches_the_route(client: httpx.AsyncClient) -> None:
    padding = "x" * (DEFAULT_BODY_LIMIT - 200)
    response = await client.post(
        "/api/login", json={"username": "0812345678", "password": "pw", "padding": padding}
    )
    assert response.status_code == 401, response.text  # the login judged it


async def test_a_route_may_declare_a_larger_json_limit(client: httpx.AsyncClient) -> None:
    body = {"message": {"message_type": "text", "payload": "x" * (100 * 1024)}}
    to_login = await client.post("/api/login", json=body)
    assert (to_login.status_code, to_login.json()) == (413, {"message": "PAYLOAD_TOO_LARGE"})
    # An agent's message may be up to 128 KiB: this one reaches the route (no agent token).
    to_agent = await client.post("/api/agent/conversations/1/messages", json=body)
    assert to_agent.status_code == 401, to_agent.text


async def test_an_upload_route_holds_other_bodies_to_the_default(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post(
        "/api/chat/upload-image",
        content=b"x" * (DEFAULT_BODY_LIMIT + 1),
        headers={"Content-Type": "application/json", "X-Guest-Id": str(uuid.uuid4())},
    )
    assert (response.status_code, response.json()) == (413, {"message": "PAYLOAD_TOO_LARGE"})


def _stored_files(app: FastAPI) -> list[Path]:
    root: Path = app.state.file_store.root
    return [p for p in root.rglob("*") if p.is_file()] if root.exists() else []


async def _chat_media_rows(app: FastAPI) -> int:
    async with app.state.sessionmaker() as session:
        return int(await session.scalar(select(func.count()).select_from(ChatMedia)) or 0)


@pytest.mark.parametrize("announced", [True, False], ids=["content-length", "chunked"])
async def test_an_oversized_chat_upload_is_refused_and_nothing_is_stored(
    app: FastAPI, client: httpx.AsyncClient, announced: bool
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    file_bytes = 12 * MB
    chunks = list(multipart(PNG, file_bytes)) if announced else multipart(PNG, file_bytes)
    headers = {"Content-Type": MULTIPART, "X-Guest-Id": str(uuid.uuid4())}
    if announced:
        headers["Content-Length"] = str(sum(len(c) for c in chunks))
    else:
        headers["Transfer-Encoding"] = "chunked"
    answer = await call(app, "POST", "/api/chat/upload-image", chunks, headers=headers)
    assert (answer.status, answer.body) == (413, {"message": "CHAT_FILE_TOO_LARGE", "maxMb": 10})
    limit = MAX_BYTES["image"] + MULTIPART_OVERHEAD
    assert answer.read == 0 if announced else limit < answer.read <= limit + CHUNK
    assert await _chat_media_rows(app) == 0
    assert _stored_files(app) == []


async def test_a_file_just_over_its_limit_is_refused_while_stored(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    # Within the body limit (file + framing), so the route copies it, and stops at 10 MB.
    await set_site_setting(client, "enableChatWidget", True)
    answer = await call(
        app,
        "POST",
        "/api/chat/upload-image",
        multipart(PNG, MAX_BYTES["image"] + 1),
        headers={
            "Content-Type": MULTIPART,
            "Transfer-Encoding": "chunked",
            "X-Guest-Id": str(uuid.uuid4()),
        },
    )
    assert (answer.status, answer.body) == (413, {"message": "CHAT_FILE_TOO_LARGE", "maxMb": 10})
    assert await _chat_media_rows(app) == 0
    assert _stored_files(app) == []  # no partial file left behind either


async def test_a_chunked_upload_at_the_limit_is_stored_whole(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    guest = str(uuid.uuid4())
    answer = await call(
        app,
        "POST",
        "/api/chat/upload-image",
        multipart(PNG, MAX_BYTES["image"]),
        headers={"Content-Type": MULTIPART, "Transfer-Encoding": "chunked", "X-Guest-Id": guest},
    )
    assert answer.status == 200, answer.body
    (stored,) = _stored_files(app)
    # Taken whole, then encoded again (pao.kit.images): the picture is kept, the padding after
    # it is not.
    assert pixels(stored.read_bytes()) == pixels(PNG)
    async with app.state.sessionmaker() as session:
        media = (await session.execute(select(ChatMedia))).scalar_one()
    assert (media.key, media.size) == (answer.body["path"], stored.stat().st_size)


async def test_a_form_takes_one_file(app: FastAPI, client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    response = await client.post(
        "/api/chat/upload-image",
        files=[("file", ("a.png", PNG, "image/png")), ("file", ("b.png", PNG, "image/png"))],
        headers={"X-Guest-Id": str(uuid.uuid4())},
    )
    assert response.status_code == 400, response.text
    assert await _chat_media_rows(app) == 0


def test_declared_limits_must_name_routes_and_answer_413() -> None:
    nowhere = Path("/nonexistent-pao-limits")
    app = create_app(Settings(sandbox=False, data_dir=nowhere, static_dir=nowhere))
    with pytest.raises(ValueError, match="noSuchRoute"):
        resolve_limits(declared_routes(app.routes), {"noSuchRoute": json_limit(1)})
    with pytest.raises(ValueError, match="413"):
        BodyLimit(1, refusal=BadRequest("KEY_INVALID"))
    limits = resolve_limits(declared_routes(app.routes), BODY_LIMITS)
    slip = limits.limit_for("POST", "/api/wallet/slip", multipart=True)
    assert slip.max_bytes == 5 * MB + MULTIPART_OVERHEAD
    assert slip.refusal.body() == {"message": "SLIP_INVALID_FILE"}
    assert limits.limit_for("POST", "/api/wallet/slip", multipart=False).max_bytes == (
        DEFAULT_BODY_LIMIT
    )
    video = limits.limit_for("POST", "/api/agent/conversations/7/upload-video", multipart=True)
    assert video.refusal.body() == {"message": "CHAT_FILE_TOO_LARGE", "maxMb": 20}


GIB = 1024 * 1024 * 1024


@pytest.mark.parametrize(
    "first",
    [
        b"this is not multipart at all\r\n" * 100,  # no boundary where one must be
        f"--{BOUNDARY}\r\nbroken header line without a colon\r\n\r\n".encode(),
    ],
    ids=["no-boundary-line", "broken-part-header"],
)
async def test_a_malformed_multipart_body_is_refused_at_its_first_bad_bytes(
    app: FastAPI, client: httpx.AsyncClient, first: bytes
) -> None:
    """Issue 33 §3: 1 GiB of broken multipart used to be read to its end."""
    await set_site_setting(client, "enableChatWidget", True)

    def body() -> Iterator[bytes]:
        yield first
        yield from repeated(GIB)

    answer = await call(
        app,
        "POST",
        "/api/chat/upload-image",
        body(),
        headers={
            "Content-Type": MULTIPART,
            "Transfer-Encoding": "chunked",
            "X-Guest-Id": str(uuid.uuid4()),
        },
    )
    assert (answer.status, answer.body) == (400, {"message": "BODY_INVALID"})
    assert answer.read <= len(first) + CHUNK
    assert answer.headers["connection"] == "close"
    assert await _chat_media_rows(app) == 0


async def test_multipart_without_a_boundary_is_refused_unread(app: FastAPI) -> None:
    answer = await call(
        app,
        "POST",
        "/api/chat/upload-image",
        repeated(GIB),
        headers={"Content-Type": "multipart/form-data", "Transfer-Encoding": "chunked"},
    )
    assert (answer.status, answer.body) == (400, {"message": "BODY_INVALID"})
    assert (answer.read, answer.headers["connection"]) == (0, "close")


async def test_an_answer_before_the_body_ends_closes_the_connection(app: FastAPI) -> None:
    # No such route: the app answers without reading the upload; the server must not read on
    # through the rest of it for a next request.
    answer = await call(
        app,
        "POST",
        "/api/chat/no-such-upload",
        multipart(PNG, 5 * MB),
        headers={"Content-Type": MULTIPART, "Transfer-Encoding": "chunked"},
    )
    assert answer.status == 404, answer.body
    assert answer.read < 5 * MB
    assert answer.headers["connection"] == "close"


async def test_an_upload_read_to_its_end_keeps_the_connection(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    answer = await call(
        app,
        "POST",
        "/api/chat/upload-image",
        multipart(PNG, 64 * 1024),
        headers={
            "Content-Type": MULTIPART,
            "Transfer-Encoding": "chunked",
            "X-Guest-Id": str(uuid.uuid4()),
        },
    )
    assert answer.status == 200, answer.body
    assert "connection" not in answer.headers


async def test_a_browsers_mixed_case_boundary_is_read_as_sent(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    # Chromium's boundaries mix cases ("----WebKitFormBoundary…"); a boundary is case-sensitive,
    # so the edge must not read it lowered (every browser upload was refused BODY_INVALID).
    await set_site_setting(client, "enableChatWidget", True)
    boundary = "----WebKitFormBoundaryAbCdEf0123456789"
    body = (
        (
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="file"; filename="a.png"\r\n'
            "Content-Type: image/png\r\n\r\n"
        ).encode()
        + PNG
        + f"\r\n--{boundary}--\r\n".encode()
    )
    answer = await call(
        app,
        "POST",
        "/api/chat/upload-image",
        [body[:100], body[100:]],
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Content-Length": str(len(body)),
            "X-Guest-Id": str(uuid.uuid4()),
        },
    )
    assert answer.status == 200, answer.body
