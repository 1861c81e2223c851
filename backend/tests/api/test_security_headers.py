"""Security headers (pao.core.security_headers): every answer, the SPA document's policy with its
inline script's hash, the sandbox's framing, no caching of API answers, and no docs in
production."""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import httpx
from fastapi import FastAPI
from fastapi.responses import JSONResponse

from pao.core.security_headers import (
    document_policy,
    inline_script_hashes,
    with_security_headers,
)
from pao.core.settings import Settings
from pao.main import create_app
from pao.site.termination import invalidate_termination_cache
from tests.helpers import auth, register_and_login, set_site_setting

API_POLICY = "default-src 'none'; frame-ancestors 'none'"
INLINE_SCRIPT = "(function () {\n  var early = (window.__early = {});\n})();"
DATA_BLOCK = '{"languages": {}}'
# The shape of the built document: a module entry, a JSON data island and one inline script.
DOCUMENT = f"""<!doctype html>
<html lang="th">
  <head>
    <title>Pao</title>
    <script type="module" crossorigin src="/assets/index-abc.js"></script>
    <script type="application/json" id="pao-preloads">{DATA_BLOCK}</script>
    <script>{INLINE_SCRIPT}</script>
    <link rel="stylesheet" crossorigin href="/assets/index-abc.css">
  </head>
  <body><div id="root"></div></body>
</html>
""".encode()


def sha256_source(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def assert_common(response: httpx.Response) -> None:
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "strict-origin-when-cross-origin"


def assert_api_headers(response: httpx.Response) -> None:
    assert_common(response)
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["content-security-policy"] == API_POLICY
    assert response.headers["cache-control"] == "no-store"


async def test_api_answers_and_errors_are_not_cached_nor_framed(
    client: httpx.AsyncClient,
) -> None:
    _, token = await register_and_login(client)
    answers = [
        await client.get("/api/wallet", headers=auth(token)),  # member data
        await client.get("/api/lookup/info"),  # public
        await client.get("/api/wallet"),  # 401
        await client.get("/api/nothing-here"),  # 404
        await client.post("/api/login", json={"phone": 1}),  # 422
    ]
    assert [a.status_code for a in answers] == [200, 200, 401, 404, 422]
    for answer in answers:
        assert_api_headers(answer)


async def test_a_terminated_sites_410_is_not_cached(client: httpx.AsyncClient) -> None:
    # Issue 17: a cached 410 kept a reopened site closed in the browser.
    await set_site_setting(client, "terminated", True)
    invalidate_termination_cache()
    gone = await client.get("/api/lookup/info")
    assert gone.status_code == 410
    assert_api_headers(gone)


async def test_a_route_may_cache_itself_but_never_an_error(settings: Settings) -> None:
    app = create_app(settings)

    @app.get("/api/test-public-lookup")
    async def lookup() -> JSONResponse:
        return JSONResponse({"banks": []}, headers={"Cache-Control": "public, max-age=60"})

    @app.get("/api/test-cached-error")
    async def cached_error() -> JSONResponse:
        return JSONResponse(
            {"message": "NO_DATA"}, status_code=404, headers={"Cache-Control": "max-age=60"}
        )

    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"
    ) as client:
        own = await client.get("/api/test-public-lookup")
        assert own.headers["cache-control"] == "public, max-age=60"
        assert own.headers["content-security-policy"] == API_POLICY
        refused = await client.get("/api/test-cached-error")
        assert refused.headers["cache-control"] == "no-store"
        # Asked with a token, the same answer may carry what only this member may see: a
        # browser or proxy must not keep it (nor hand it to the next user of the device).
        authed = await client.get("/api/test-public-lookup", headers={"Authorization": "Bearer x"})
        assert authed.status_code == 200
        assert authed.headers["cache-control"] == "no-store"


def test_the_document_policy_hashes_each_inline_script_and_nothing_else() -> None:
    hashes = inline_script_hashes(DOCUMENT)
    # Only the script the browser runs; the JSON island is data and the entry is a file.
    assert hashes == [sha256_source(INLINE_SCRIPT)]
    directives = (directive.partition(" ") for directive in document_policy(hashes).split("; "))
    policy = {name: value for name, _, value in directives}
    assert policy["script-src"] == f"'self' '{sha256_source(INLINE_SCRIPT)}'"
    assert policy["default-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert policy["base-uri"] == "'none'"
    assert policy["frame-ancestors"] == "'none'"
    assert "'unsafe-inline'" not in document_policy(hashes)
    assert "'unsafe-eval'" not in document_policy(hashes)


def built_spa(root: Path) -> Path:
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_bytes(DOCUMENT)
    (root / "assets" / "index-abc.js").write_text("export {};\n")
    (root / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    return root


async def test_the_spa_document_carries_the_policy_of_its_build(
    settings: Settings, tmp_path: Path
) -> None:
    app = create_app(settings.model_copy(update={"static_dir": built_spa(tmp_path / "dist")}))
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"
    ) as client:
        for path in ("/", "/login", "/user/home", "/index.html"):
            for encoding in ("gzip", "identity"):
                page = await client.get(path, headers={"Accept-Encoding": encoding})
                assert page.status_code == 200, path
                assert page.content == DOCUMENT
                assert_common(page)
                assert page.headers["x-frame-options"] == "DENY"
                assert page.headers["content-security-policy"] == document_policy(
                    [sha256_source(INLINE_SCRIPT)]
                )
                # The document itself is revalidated (its own header), not no-store.
                assert page.headers["cache-control"] == "no-cache"
        for path in ("/assets/index-abc.js", "/favicon.svg"):
            asset = await client.get(path)
            assert asset.status_code == 200
            assert_common(asset)
            assert asset.headers["x-frame-options"] == "DENY"
            assert asset.headers["content-security-policy"] == "frame-ancestors 'none'"


async def test_sandbox_pages_may_be_framed_by_the_app_only(client: httpx.AsyncClient) -> None:
    # The app frames the sandbox's game pages when games launch in-app (a provider's page).
    page = await client.get("/sandbox/games/login/JOKER")
    assert page.status_code == 200
    assert_common(page)
    assert page.headers["x-frame-options"] == "SAMEORIGIN"
    assert page.headers["content-security-policy"] == "frame-ancestors 'self'"


async def docs_status(app: FastAPI) -> tuple[int, int]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://test"
    ) as client:
        docs = await client.get("/api/docs")
        schema = await client.get("/api/openapi.json")
    return docs.status_code, schema.status_code


async def test_api_docs_in_development_only(settings: Settings) -> None:
    development = create_app(settings.model_copy(update={"env": "development"}))
    assert await docs_status(development) == (200, 200)
    production = create_app(
        settings.model_copy(update={"env": "production", "sandbox": False, "log_json": False})
    )
    assert await docs_status(production) == (404, 404)
    # The contract is still generated from the app (contract/openapi.json).
    assert "/api/login" in production.openapi()["paths"]


def test_ours_replace_an_answers_own_of_any_case_and_appear_once() -> None:
    # One pass over the raw headers: an answer's own framing (any case) gives way to ours,
    # its policy stays, and no header of ours is sent twice.
    given = [
        (b"X-Frame-Options", b"ALLOWALL"),
        (b"x-content-type-options", b"sniff"),
        (b"Content-Security-Policy", b"default-src 'self'"),
        (b"Cache-Control", b"public, max-age=60"),
        (b"content-type", b"application/json"),
    ]
    public = with_security_headers(
        given, framing=b"DENY", policy=API_POLICY.encode(), no_store=False, api=True
    )
    names = [name.lower() for name, _ in public]
    assert len(names) == len(set(names))
    as_dict = {name.lower(): value for name, value in public}
    assert as_dict[b"x-frame-options"] == b"DENY"
    assert as_dict[b"x-content-type-options"] == b"nosniff"
    assert as_dict[b"content-security-policy"] == b"default-src 'self'"
    assert as_dict[b"cache-control"] == b"public, max-age=60"
    assert as_dict[b"content-type"] == b"application/json"
    refused = dict(
        with_security_headers(
            given, framing=b"DENY", policy=API_POLICY.encode(), no_store=True, api=True
        )
    )
    assert refused[b"cache-control"] == b"no-store"
    page = dict(
        with_security_headers(
            [], framing=b"DENY", policy=b"frame-ancestors 'none'", no_store=False, api=False
        )
    )
    assert b"cache-control" not in page
    assert page[b"content-security-policy"] == b"frame-ancestors 'none'"
