"""Answers a client can cause before any route runs carry catalogue codes too: a body that
cannot be read (400 / 415 BODY_INVALID), a method a path does not take (405
METHOD_NOT_ALLOWED, decided by the router, with the SPA mounted or not)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from pao.core.errors import _HTTP_CODES, ServiceUnavailable
from pao.core.settings import REPO_ROOT, Settings
from pao.main import create_app
from tests.helpers import auth, register_and_login

BODY_INVALID = {"message": "BODY_INVALID"}
METHOD_NOT_ALLOWED = {"message": "METHOD_NOT_ALLOWED"}


@pytest.mark.parametrize(
    ("content", "content_type", "status"),
    [
        (b'{"username": "0812345678", "password": ', "application/json", 400),  # cut short
        (b"{'username': '0812345678'}", "application/json", 400),  # not JSON
        (b'{"username": "0812345678", "password": "x"}', "text/plain", 415),
        (b"username=0812345678&password=x", "application/x-www-form-urlencoded", 415),
        (b'{"username": "0812345678", "password": "x"}', None, 415),
    ],
)
async def test_an_unreadable_body_is_body_invalid(
    client: httpx.AsyncClient, content: bytes, content_type: str | None, status: int
) -> None:
    _, token = await register_and_login(client)
    headers = {"Content-Type": content_type} if content_type else {}
    for path, extra in (("/api/login", {}), ("/api/wallet/withdraw", auth(token))):
        response = await client.post(path, content=content, headers={**headers, **extra})
        assert response.status_code == status, (path, response.text)
        assert response.json() == BODY_INVALID


async def test_a_broken_multipart_body_is_body_invalid(client: httpx.AsyncClient) -> None:
    _, token = await register_and_login(client)
    response = await client.post(
        "/api/wallet/slip",
        content=b"--x\r\nnot a form",
        headers={**auth(token), "Content-Type": "multipart/form-data"},  # no boundary
    )
    assert response.status_code == 400
    assert response.json() == BODY_INVALID


async def test_a_readable_body_with_a_wrong_field_still_names_it(
    client: httpx.AsyncClient,
) -> None:
    response = await client.post("/api/login", json={"username": 812345678, "password": "x"})
    assert response.status_code == 422
    assert response.json() == {"message": "KEY_INVALID", "field": "username"}


def built_spa(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Pao</title>")
    return root


@pytest.mark.parametrize("with_spa", [True, False])
async def test_a_wrong_method_is_405_and_an_unknown_path_404(
    settings: Settings, tmp_path: Path, with_spa: bool
) -> None:
    static = built_spa(tmp_path / "dist") if with_spa else tmp_path / "no-spa"
    app = create_app(settings.model_copy(update={"static_dir": static}))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"
    ) as client:
        for method, path, allowed in [
            ("GET", "/api/login", "POST"),  # the SPA used to answer this one: 404 NO_DATA
            ("GET", "/api/wallet/withdraw", "POST"),
            ("DELETE", "/api/wallet", "GET"),
            ("POST", "/api/lookup/info", "GET"),
            ("DELETE", "/sandbox/sms", "GET, POST"),  # two routes, one per method
        ]:
            response = await client.request(method, path)
            assert response.status_code == 405, (method, path, response.text)
            assert response.json() == METHOD_NOT_ALLOWED
            assert response.headers["allow"] == allowed
        for path in ("/api/nothing-here", "/sandbox/nothing-here", "/api/login/extra"):
            response = await client.get(path)
            assert response.status_code == 404, path
            assert response.json() == {"message": "NO_DATA"}
        page = await client.get("/user/home")
        if with_spa:
            assert page.status_code == 200
            assert page.headers["content-type"].startswith("text/html")
        else:
            assert page.status_code == 404


def test_every_code_the_error_layer_answers_is_in_the_app_catalogue() -> None:
    sections = json.loads(
        (REPO_ROOT / "frontend" / "src" / "lib" / "error-codes.json").read_text()
    )["errorMsg"]
    catalogue = {code for section in sections.values() for code in section}
    codes = {*_HTTP_CODES.values(), ServiceUnavailable.code, "KEY_INVALID", "KEY_MISSING"}
    codes.discard("invalid-token")  # the contract's own lower-case answer to a bad token
    assert codes - catalogue == set()
