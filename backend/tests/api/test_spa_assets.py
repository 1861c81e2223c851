"""The built app's assets are served gzip-compressed (the /login paint on slow 4G depends on
the bytes; docs/benchmarks.md), and still plain to a client that does not accept gzip."""

from __future__ import annotations

import gzip
from pathlib import Path

import httpx

from pao.core.settings import Settings
from pao.main import create_app

SCRIPT = b"export const greeting = 'sawasdee';\n" * 400


def built_spa(root: Path) -> Path:
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>Pao</title>")
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
