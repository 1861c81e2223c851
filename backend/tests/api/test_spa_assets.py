"""The built app's assets and its index.html are served gzip-compressed (the /login paint on
slow 4G depends on the bytes; docs/benchmarks.md), and still plain to a client that does not
accept gzip."""

from __future__ import annotations

import base64
import gzip
import hashlib
from pathlib import Path

import httpx
import pytest

from pao.core.settings import Settings
from pao.main import create_app

SCRIPT = b"export const greeting = 'sawasdee';\n" * 400
# The size of the real document's preload list, so that compressing it pays.
INDEX = (
    b"<!doctype html><title>Pao</title>\n"
    + b'<link rel="modulepreload" href="/assets/index-abc123.js">\n' * 80
)
SPA_PATHS = ("/", "/login", "/user/home", "/index.html")


def built_spa(root: Path) -> Path:
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_bytes(INDEX)
    (root / "assets" / "index-abc123.js").write_bytes(SCRIPT)
    return root


async def test_assets_are_gzipped(settings: Settings, tmp_path: Path) -> None:
    app = create_app(settings.model_copy(update={"static_dir": built_spa(tmp_path / "dist")}))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        raw = await client.get("/assets/index-abc123.js", headers={"Accept-Encoding": "gzip"})
        assert raw.status_code == 200
        assert raw.headers["content-encoding"] == "gzip"
        # httpx decodes it: the same bytes arrive, in far fewer on the wire.
        assert raw.content == SCRIPT
        assert int(raw.headers.get("content-length", len(gzip.compress(SCRIPT)))) < len(SCRIPT)

        plain = await client.get("/assets/index-abc123.js", headers={"Accept-Encoding": "identity"})
        assert plain.status_code == 200
        assert "content-encoding" not in plain.headers
        assert plain.content == SCRIPT


async def test_api_answers_are_not_compressed(settings: Settings, tmp_path: Path) -> None:
    app = create_app(settings.model_copy(update={"static_dir": built_spa(tmp_path / "dist")}))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        answer = await client.get("/api/nothing-here", headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 404
        assert "content-encoding" not in answer.headers


async def raw_get(
    client: httpx.AsyncClient, path: str, accept_encoding: str
) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent on the wire (httpx would decode a gzipped one)."""
    async with client.stream("GET", path, headers={"Accept-Encoding": accept_encoding}) as answer:
        return answer, b"".join([chunk async for chunk in answer.aiter_raw()])


async def test_index_html_is_gzipped_when_asked_for(settings: Settings, tmp_path: Path) -> None:
    app = create_app(settings.model_copy(update={"static_dir": built_spa(tmp_path / "dist")}))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for path in SPA_PATHS:
            packed, body = await raw_get(client, path, "gzip, deflate, br")
            assert packed.status_code == 200, path
            assert packed.headers["content-encoding"] == "gzip", path
            assert gzip.decompress(body) == INDEX, path
            assert int(packed.headers["content-length"]) == len(body) < len(INDEX)
            assert packed.headers["content-type"] == "text/html; charset=utf-8"
            # Revalidated on every load, and kept apart from the plain body by shared caches.
            assert packed.headers["cache-control"] == "no-cache", path
            assert packed.headers["vary"] == "Accept-Encoding", path

            plain, body = await raw_get(client, path, "identity")
            assert plain.status_code == 200, path
            assert "content-encoding" not in plain.headers, path
            assert body == INDEX, path
            assert int(plain.headers["content-length"]) == len(INDEX)
            assert plain.headers["cache-control"] == "no-cache", path
            assert plain.headers["vary"] == "Accept-Encoding", path

        # No Accept-Encoding at all: plain.
        bare, body = await raw_get(client, "/login", "")
        assert "content-encoding" not in bare.headers
        assert body == INDEX


async def test_index_html_is_read_once(settings: Settings, tmp_path: Path) -> None:
    """Compressed when the app is built, not per request: a later change on disk is not served."""
    dist = built_spa(tmp_path / "dist")
    app = create_app(settings.model_copy(update={"static_dir": dist}))
    (dist / "index.html").write_text("<!doctype html><title>changed</title>")
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        answer = await client.get("/login", headers={"Accept-Encoding": "gzip"})
        assert answer.content == INDEX


BACK_OFFICE = b"<!doctype html><title>Pao back office</title>\n" + b"<div></div>\n" * 200


async def test_back_office_paths_get_the_back_office_document(
    settings: Settings, tmp_path: Path
) -> None:
    """/backoffice and its routes answer backoffice.html (gzipped once, like index.html); every
    other path keeps the player's document, so neither app loads the other's entry."""
    dist = built_spa(tmp_path / "dist")
    (dist / "backoffice.html").write_bytes(BACK_OFFICE)
    app = create_app(settings.model_copy(update={"static_dir": dist}))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for path in ("/backoffice", "/backoffice/", "/backoffice/audit", "/backoffice.html"):
            packed, body = await raw_get(client, path, "gzip")
            assert packed.status_code == 200, path
            assert packed.headers["content-encoding"] == "gzip", path
            assert packed.headers["cache-control"] == "no-cache", path
            assert gzip.decompress(body) == BACK_OFFICE, path
            plain, body = await raw_get(client, path, "identity")
            assert "content-encoding" not in plain.headers, path
            assert body == BACK_OFFICE, path
        for path in (*SPA_PATHS, "/backofficex", "/user/backoffice"):
            answer = await client.get(path)
            assert answer.content == INDEX, path


async def test_a_missing_file_is_a_404_not_the_app(settings: Settings, tmp_path: Path) -> None:
    """A video or image that is not there answers 404, so a player shows "unavailable" rather
    than playing the app's HTML as a 0:00 video; the app's own routes still get the document."""
    app = create_app(settings.model_copy(update={"static_dir": built_spa(tmp_path / "dist")}))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for path in ("/media/howto/wallet.webm", "/media/contact/other.png", "/nothing.js"):
            answer = await client.get(path)
            assert answer.status_code == 404, path
            assert answer.json() == {"message": "NO_DATA"}, path
        for path in ("/user/home", "/backoffice/members/12", "/index.html"):
            assert (await client.get(path)).status_code == 200, path


async def test_head_on_the_app_documents(settings: Settings, tmp_path: Path) -> None:
    """A probe's HEAD on a page gets the page's headers, no body and no 405."""
    app = create_app(settings.model_copy(update={"static_dir": built_spa(tmp_path / "dist")}))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        for path in (*SPA_PATHS, "/backoffice", "/assets/index-abc123.js"):
            answer = await client.head(path)
            assert answer.status_code == 200, path
            assert answer.content == b"", path
        assert (await client.head("/media/none.mp4")).status_code == 404


async def test_the_lao_variant_is_written_into_the_player_document(
    settings: Settings, tmp_path: Path
) -> None:
    """PAO_LAO_MODE tells the same build it is the Lao variant: index.html names it in a meta
    (read by the app and its inline preload script) and in <html lang>, before any request of
    the app's; the inline script's hash in the policy still matches."""
    dist = built_spa(tmp_path / "dist")
    script = b"<script>console.log(1)</script>"
    document = b'<!doctype html>\n<html lang="th">\n  <head>\n' + script + b"</head></html>\n"
    (dist / "index.html").write_bytes(document)
    lao = create_app(settings.model_copy(update={"static_dir": dist, "lao_mode": True}))
    thai = create_app(settings.model_copy(update={"static_dir": dist}))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=lao), base_url="http://t") as c:
        for path in SPA_PATHS:
            answer = await c.get(path)
            assert answer.content == (
                b'<!doctype html>\n<html lang="lo">\n  <head>\n'
                b'    <meta name="pao-variant" content="la" />\n' + script + b"</head></html>\n"
            ), path
        policy = answer.headers["content-security-policy"]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=thai), base_url="http://t") as c:
        thai_answer = await c.get("/login")
        assert thai_answer.content == document
        assert thai_answer.headers["content-security-policy"] == policy


async def test_a_lao_variant_needs_a_head_to_write_into(settings: Settings, tmp_path: Path) -> None:
    dist = built_spa(tmp_path / "dist")
    with pytest.raises(RuntimeError, match="no <head>"):
        create_app(settings.model_copy(update={"static_dir": dist, "lao_mode": True}))


async def test_the_lao_variant_is_written_into_the_back_office_document(
    settings: Settings, tmp_path: Path
) -> None:
    """A Lao operator's staff get the variant too (their amounts in kip, Lao by default):
    backoffice.html names it like index.html, under every back-office path, plain and gzipped;
    an inline script in it still runs (its hash is in the policy, the same as the Thai one's).
    The Thai variant serves it as built."""
    dist = built_spa(tmp_path / "dist")
    script = b"document.body.dataset.ready = 'yes';"
    document = (
        b'<!doctype html>\n<html lang="th">\n  <head>\n    <title>Pao back office</title>\n'
        b"    <script>" + script + b"</script>\n  </head>\n  <body></body>\n</html>\n"
    )
    (dist / "backoffice.html").write_bytes(document)
    # A Lao variant needs a <head> in the player's document too.
    (dist / "index.html").write_bytes(b"<!doctype html><head><title>Pao</title></head>")
    script_hash = "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"
    paths = ("/backoffice", "/backoffice/", "/backoffice/members/12", "/backoffice/anything")
    lao = create_app(settings.model_copy(update={"static_dir": dist, "lao_mode": True}))
    thai = create_app(settings.model_copy(update={"static_dir": dist}))
    policies: set[str] = set()
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=lao), base_url="http://t") as c:
        for path in paths:
            plain, body = await raw_get(c, path, "identity")
            packed, packed_body = await raw_get(c, path, "gzip")
            assert body == gzip.decompress(packed_body), path
            assert body == document.replace(b'lang="th"', b'lang="lo"').replace(
                b"<head>\n", b'<head>\n    <meta name="pao-variant" content="la" />\n'
            ), path
            for answer in (plain, packed):
                assert script_hash in answer.headers["content-security-policy"], path
                policies.add(answer.headers["content-security-policy"])
        # The player's document is still its own.
        assert b"<title>Pao</title>" in (await c.get("/login")).content
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=thai), base_url="http://t") as c:
        for path in paths:
            answer = await c.get(path)
            assert answer.content == document, path
            assert b"pao-variant" not in answer.content, path
            policies.add(answer.headers["content-security-policy"])
    # One policy for both variants: writing the meta in changed no script.
    assert len(policies) == 1
