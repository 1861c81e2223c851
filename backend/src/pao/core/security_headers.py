"""Security headers on every HTTP answer (a pure ASGI middleware, outermost in ``create_app``).

Every answer:
  * ``X-Content-Type-Options: nosniff``: an uploaded file or a JSON answer is never run as
    something else.
  * ``Referrer-Policy: strict-origin-when-cross-origin``: another site (a game provider the app
    launches, a link in operator HTML) learns the operator's origin, which some providers check
    before an auto-login, and never a path or query of the app. Nothing stricter is needed:
    the app's paths and queries carry no secret (the auto-login call is a fetch, not a page).
  * Framing: ``X-Frame-Options: DENY`` and ``frame-ancestors 'none'``: no other site may frame
    the app (clickjacking of the transfer and withdraw buttons). Pao's app frames *others* (a
    game launched "inside the app", a how-to video); the only pages Pao serves to be framed are
    the sandbox's game pages (standing in for a provider's, framed by the app when the
    operator launches games in-app), so ``/sandbox/`` answers allow the same origin only
    (``SAMEORIGIN``, ``frame-ancestors 'self'``). The sandbox is off in production.

The SPA document (``index.html``) carries its own policy, :func:`document_policy`, built once
from the built document by ``pao.main._SpaDocument``: the inline script is allowed by its
sha256 hash (computed from the very bytes served, so the header always matches the build) and
nothing else inline runs. What the app loads, and so what the policy allows:

  * scripts, styles, fonts: its own origin (``/assets``); no inline style (React sets styles
    through the DOM, which CSP does not govern; operator HTML is sanitised without ``style``);
  * images: its own, ``data:`` (the inline favicon), ``blob:`` (slip and chat images fetched
    with the bearer token) and any ``https:`` image (operator banners, QR, chat card images
    are operator-configured URLs);
  * media: its own, ``blob:`` (chat videos) and ``https:`` (operator how-to videos);
  * connections: its own origin only (the API, and socket.io's websocket: ``'self'`` covers
    ``ws:``/``wss:`` to the same host);
  * frames: its own and ``https:`` (a game launched in-app is the provider's https page; the
    how-to player is YouTube's); a game launched in a tab or the same window is a navigation,
    which CSP does not restrict;
  * no plugins (``object-src 'none'``), no ``<base>``, forms post only to the app.

API answers get ``default-src 'none'`` (a JSON answer or an uploaded file opened as a page
runs nothing) and ``Cache-Control: no-store`` unless the route chose its own caching. One rule
overrides a route's own caching: no error answer and no answer to a request that carries a token
(member or staff data) is ever cacheable: a cached 410 kept a reopened site closed (issue 17), and
a cached member answer would outlive a logout on a shared phone. Only a public 2xx (a lookup asked
without a token) may keep a short ``max-age`` its route chose. TLS, HSTS and
``upgrade-insecure-requests`` belong to the deployment's proxy (``docs/security.md``).

``/api/docs`` (Swagger UI, loaded from a CDN) is served in development only
(``create_app``: ``PAO_ENV=production`` serves neither the docs nor ``/api/openapi.json``; the
contract is ``contract/openapi.json`` in the repository), and gets no script policy.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from html.parser import HTMLParser

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DOCS_PATHS = ("/api/docs", "/docs/oauth2-redirect")

COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
}
API_POLICY = "default-src 'none'; frame-ancestors 'none'"
NO_FRAMING_POLICY = "frame-ancestors 'none'"
SANDBOX_POLICY = "frame-ancestors 'self'"

_DOCUMENT_DIRECTIVES = (
    ("default-src", "'self'"),
    ("script-src", "'self'"),
    ("style-src", "'self'"),
    ("img-src", "'self' data: blob: https:"),
    ("media-src", "'self' blob: https:"),
    ("font-src", "'self'"),
    ("connect-src", "'self'"),
    ("frame-src", "'self' https:"),
    ("object-src", "'none'"),
    ("base-uri", "'none'"),
    ("form-action", "'self'"),
    ("frame-ancestors", "'none'"),
)


def document_policy(script_hashes: Iterable[str]) -> str:
    """The Content-Security-Policy of the SPA document whose inline scripts have these
    hashes (``sha256-…`` sources, as :func:`inline_script_hashes` gives them)."""
    hashes = " ".join(f"'{source}'" for source in script_hashes)
    return "; ".join(
        f"{name} {value} {hashes}" if name == "script-src" and hashes else f"{name} {value}"
        for name, value in _DOCUMENT_DIRECTIVES
    )


# A <script> without these types is run by the browser (HTML's "classic" and "module").
_RUNNABLE_TYPES = {"", "text/javascript", "application/javascript", "module"}


class _InlineScripts(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.scripts: list[str] = []
        self._current: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "script":
            return
        named = {name: value or "" for name, value in attrs}
        runs = named.get("type", "").strip().lower() in _RUNNABLE_TYPES
        self._current = [] if runs and "src" not in named else None

    def handle_data(self, data: str) -> None:
        if self._current is not None:
            self._current.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._current is not None:
            self.scripts.append("".join(self._current))
            self._current = None


def inline_script_hashes(document: bytes) -> list[str]:
    """``sha256-<base64>`` of each inline script the browser would run (not JSON data blocks),
    over the script's text exactly as it stands in the document."""
    parser = _InlineScripts()
    parser.feed(document.decode("utf-8"))
    parser.close()
    return [
        "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
        for script in parser.scripts
    ]


def _is_api(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


# Encoded once: the layer runs on every answer. The names are lowercase, as ASGI servers and
# Starlette's responses give them; an answer's own header is compared lowercased all the same.
_COMMON = tuple((name.lower().encode(), value.encode()) for name, value in COMMON_HEADERS.items())
_FRAME_OPTIONS = b"x-frame-options"
_POLICY = b"content-security-policy"
_CACHE_CONTROL = b"cache-control"
_NO_STORE = (_CACHE_CONTROL, b"no-store")
_API_POLICY, _NO_FRAMING_POLICY, _SANDBOX_POLICY = (
    policy.encode() for policy in (API_POLICY, NO_FRAMING_POLICY, SANDBOX_POLICY)
)
# Ours on every answer: an answer's own value of these is replaced.
_ALWAYS_OURS = frozenset({name for name, _ in _COMMON} | {_FRAME_OPTIONS})


class SecurityHeadersMiddleware:
    """Adds the headers above to every HTTP answer; a header the answer already has (the SPA
    document's policy, a route's own caching) is kept, except that errors and answers to a
    request with a token are never cached."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        docs = path.startswith(DOCS_PATHS)
        api = _is_api(path) and not docs
        sandbox = path.startswith("/sandbox/")
        # Member- or staff-specific: asked with a token (``Authorization: Bearer …``).
        authed = api and any(name == b"authorization" for name, _ in scope["headers"])
        if sandbox:
            framing, policy = b"SAMEORIGIN", _SANDBOX_POLICY
        else:
            framing, policy = b"DENY", _API_POLICY if api else _NO_FRAMING_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = with_security_headers(
                    message.get("headers", ()),
                    framing=framing,
                    policy=policy,
                    no_store=api and (message["status"] >= 400 or authed),
                    api=api,
                )
            await send(message)

        await self.app(scope, receive, send_with_headers)


def with_security_headers(
    given: Iterable[tuple[bytes, bytes]],
    *,
    framing: bytes,
    policy: bytes,
    no_store: bool,
    api: bool,
) -> list[tuple[bytes, bytes]]:
    """The answer's headers with ours: the common ones and the framing replace the answer's
    own; its policy and caching are kept unless it has none (or, ``no_store``, it may not
    keep its caching). One pass over the raw list rather than Starlette's ``MutableHeaders``,
    which searches the list again for each header set (most of this layer's cost)."""
    headers: list[tuple[bytes, bytes]] = []
    has_policy = has_cache_control = False
    for name, value in given:
        lowered = name.lower()
        if lowered in _ALWAYS_OURS:
            continue
        if lowered == _CACHE_CONTROL:
            if no_store:
                continue
            has_cache_control = True
        elif lowered == _POLICY:
            has_policy = True
        headers.append((name, value))
    headers.extend(_COMMON)
    headers.append((_FRAME_OPTIONS, framing))
    if not has_policy:
        headers.append((_POLICY, policy))
    if api and (no_store or not has_cache_control):
        headers.append(_NO_STORE)
    return headers
