"""5. Frontend: JavaScript and CSS bytes (gzip -9) per route, from the Vite build manifest, and
Lighthouse (mobile preset, simulated Slow 4G) on /login and /user/home.

A route's bytes are the entry chunk and its static imports, plus the route's lazy chunks (the
shell and the screen, as app/router.tsx declares them) with their static imports and the
default locale's strings; chunks a screen imports dynamically (modals, widgets loaded later)
are counted separately as "on demand". The build goes to the bench's own directory, never to
frontend/dist (other runs may be serving that one).
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.common import QUICK, REPO, WORK_DIR, Server, log, run

DIST = WORK_DIR / "dist"
LOCALE = "src/locales/th/translation.json"
ROUTES: dict[str, list[str]] = {
    "/login": ["src/app/routes/public-shell.tsx", "src/app/routes/login.tsx"],
    "/register": ["src/app/routes/public-shell.tsx", "src/app/routes/register.tsx"],
    "/user/home": ["src/app/routes/user-shell.tsx", "src/app/routes/user/home.tsx"],
    "/user/statement": [
        "src/app/routes/user-shell.tsx",
        "src/app/routes/user/statement.tsx",
    ],
    "/user/profile": [
        "src/app/routes/user-shell.tsx",
        "src/app/routes/user/profile.tsx",
    ],
}
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


def route_bytes(dist: Path = DIST) -> list[RouteBytes]:
    manifest: dict[str, Any] = json.loads(
        (dist / ".vite" / "manifest.json").read_text()
    )
    entry = next(key for key, chunk in manifest.items() if chunk.get("isEntry"))

    def closure(keys: list[str]) -> tuple[set[str], set[str]]:
        files: set[str] = set()
        dynamic: set[str] = set()
        stack = list(keys)
        seen: set[str] = set()
        while stack:
            key = stack.pop()
            if key in seen or key not in manifest:
                continue
            seen.add(key)
            chunk = manifest[key]
            files.add(chunk["file"])
            files.update(chunk.get("css", []))
            stack.extend(chunk.get("imports", []))
            dynamic.update(chunk.get("dynamicImports", []))
        return files, dynamic

    results = []
    entry_files, _ = closure([entry, LOCALE])
    for route, modules in ROUTES.items():
        files, _ = closure([entry, LOCALE, *modules])
        # Chunks that the route's own screens load on demand (modals, later widgets); the
        # entry's dynamic imports are the other routes, not counted here.
        own = [
            key
            for key, chunk in manifest.items()
            if chunk["file"] in files - entry_files
        ]
        dynamic = {d for key in own for d in manifest[key].get("dynamicImports", [])}
        later, _ = closure(sorted(dynamic))
        on_demand = {f for f in later - files if f.endswith(".js")}
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
