"""5. Frontend: JavaScript and CSS bytes (gzip -9) per route, from the Vite build manifest, and
Lighthouse (mobile preset, simulated Slow 4G) on /login and /user/home.

A route's bytes are the entry chunk and its static imports, plus what index.html preloads for
the route (its shell and screen chunks with their static imports, and the default locale's
up-front strings and the string parts the screens show); chunks a screen imports dynamically
(modals, widgets loaded later) are counted separately as "on demand". The build goes to the bench's own directory, never to
frontend/dist (other runs may be serving that one).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import QUICK, REPO, WORK_DIR, Server, log, run

DIST = WORK_DIR / "dist"
LOCALE = "th"
ROUTES = ["/login", "/register", "/user/home", "/user/statement", "/user/profile"]
# The same limit as the test's (frontend/scripts/check-bundle.mjs TARGET_KIB).
LOGIN_TARGET_KIB = 100
LIGHTHOUSE_RUNS = 1 if QUICK else 3


@dataclass
class RouteBytes:
    route: str
    js_gzip: int
    css_gzip: int
    on_demand_js_gzip: int
    files: int


def build() -> Path:
    log("building the frontend into " + str(DIST))
    run(
        [
            "npx",
            "vite",
            "build",
            "--outDir",
            str(DIST),
            "--emptyOutDir",
            "--logLevel",
            "warn",
        ],
        timeout=300,
        env={**os.environ, "PATH": os.environ.get("PATH", "")},
        cwd=REPO / "frontend",
    )
    return DIST


def _gz(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), compresslevel=9))


def _preloads(html: str) -> dict[str, Any]:
    """What index.html preloads per language and per first screen (its data island, written
    by frontend/plugins/preload-first-screen.ts)."""
    found = re.search(
        r'<script type="application/json" id="pao-preloads">(.*?)</script>',
        html,
        re.DOTALL,
    )
    if found is None:
        raise RuntimeError("no preloads in the built index.html")
    return dict(json.loads(found.group(1)))


def _stylesheets(html: str) -> set[str]:
    """The stylesheets index.html links (the app has one, for every screen)."""
    return {
        href.lstrip("/")
        for href in re.findall(r'<link rel="stylesheet"[^>]*href="([^"]+)"', html)
    }


def route_bytes(dist: Path = DIST) -> list[RouteBytes]:
    manifest: dict[str, Any] = json.loads(
        (dist / ".vite" / "manifest.json").read_text()
    )
    key_of = {chunk["file"]: key for key, chunk in manifest.items()}
    # The player app's entry by name: the build has a second one (backoffice.html), and the
    # manifest's order is not the build's promise.
    entry = "index.html"
    if not manifest.get(entry, {}).get("isEntry"):
        raise RuntimeError("the build's manifest has no index.html entry")
    html = (dist / "index.html").read_text()
    preloads = _preloads(html)
    language = preloads["languages"][LOCALE]

    def closure(keys: list[str]) -> set[str]:
        files: set[str] = set()
        stack = list(keys)
        while stack:
            key = stack.pop()
            chunk = manifest[key]
            if chunk["file"] in files:
                continue
            files.add(chunk["file"])
            files.update(chunk.get("css", []))
            stack.extend(chunk.get("imports", []))
        return files

    def key(href: str) -> str:
        return key_of[href.lstrip("/")]

    entry_files = closure([entry, key(language["strings"])]) | _stylesheets(html)
    results = []
    for route in ROUTES:
        screen = preloads["screens"][route]
        own = [key(href) for href in screen["js"]]
        parts = [key(language["parts"][part]) for part in screen["strings"]]
        files = entry_files | closure(own + parts)
        # Chunks the route's screens load on demand (modals, later widgets).
        dynamic = {d for k in own for d in manifest[k].get("dynamicImports", [])}
        on_demand = {f for f in closure(sorted(dynamic)) - files if f.endswith(".js")}
        js = sum(_gz(dist / f) for f in files if f.endswith(".js"))
        css = sum(_gz(dist / f) for f in files if f.endswith(".css"))
        results.append(
            RouteBytes(
                route, js, css, sum(_gz(dist / f) for f in on_demand), len(files)
            )
        )
    return results


def lighthouse(url: str, token: str | None) -> dict[str, Any]:
    out = run(
        [
            "node",
            str(REPO / "bench" / "lighthouse.mjs"),
            url,
            *([token] if token else []),
        ],
        timeout=180,
        env={
            **os.environ,
            "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/bin/chromium"),
        },
        cwd=REPO / "bench",
    )
    return dict(json.loads(out.strip().splitlines()[-1]))


def lighthouse_all(dist: Path = DIST) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    with Server(workers=2, extra_env={"PAO_STATIC_DIR": str(dist)}) as server:
        for route, token in (("/login", None), ("/user/home", "bench-token-2")):
            runs = [
                lighthouse(server.url + route, token) for _ in range(LIGHTHOUSE_RUNS)
            ]
            median: dict[str, Any] = dict(runs[-1])
            for key in (
                "performance",
                "accessibility",
                "lcpMs",
                "fcpMs",
                "tbtMs",
                "cls",
            ):
                values = [r[key] for r in runs if r.get(key) is not None]
                median[key] = statistics.median(values) if values else None
            median["runs"] = len(runs)
            results[route] = median
            log(
                f"lighthouse {route}: performance {median['performance']}, accessibility "
                f"{median['accessibility']}, LCP {median['lcpMs']:.0f} ms "
                f"(final URL {median['finalUrl']})"
            )
    return results


def chromium_version() -> str:
    done = subprocess.run(
        [os.environ.get("CHROME_PATH", "/usr/bin/chromium"), "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip()
