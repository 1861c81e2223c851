"""The edge: one ASGI middleware that bounds and scans every request before any route runs.

Issue 15, findings 2 and 3. For every HTTP request, whatever answers it (the API, the agent
inbox, the sandbox, the socket.io mount, a future back office):

1. the path and the query string are scanned for control characters
   (:mod:`pao.core.input_text`); no body is read;
2. a body is bounded by its route's limit (:mod:`pao.core.request_limits`): refused unread when
   ``Content-Length`` is over it, else counted as the server delivers it and refused as soon as
   the count passes the limit — the rest is never read;
3. a body is scanned for control characters: a JSON or urlencoded body (bounded, so small) is
   read whole here, scanned over its raw bytes (:func:`~pao.core.input_text.body_refusal`) and
   handed to the app as it came (the app parses it once, as before); a multipart body is
   streamed to the app and scanned as it passes
   (:class:`~pao.core.input_text.MultipartTextScanner`), so an upload is never held in memory
   here, and one whose framing breaks is refused at the first bytes that show it. engine.io's
   polling bodies are not scanned (their framing is the record separator 0x1E, and the chat's
   socket stores no text from them).

A refusal before the app ran is answered here. One found while the app reads a multipart body
stops its reading (the receive channel raises :class:`BodyRefused`, an ``HTTPException``, so
nothing logs it as a crash), and whatever error the app then answers is replaced by the edge's
refusal: the app never sees the rest of the body, and the client gets the catalogue code.
Whatever answers a body before its end (the edge, or the app refusing early: a missing login,
a closed chat) closes the connection after the answer, so that the server does not read on
through the rest of the body looking for the next request.

Cost: a request without a body (``GET /api/wallet``) pays one search of its path (and of its
query string, when there is one) and one pass over its headers; a JSON body, two C-speed passes
over its bytes. Measured in-process on the 2-core development machine (the middleware around an
app that answers at once, best of 3 × 200,000 calls): ``GET /api/wallet`` +0.8 µs, the
withdrawal's POST +3 µs, a 2,000-character Thai chat message +11 µs — against ≈ 1.2 ms of CPU
per ``GET /api/wallet`` and ≈ 4.4 ms per withdrawal in docs/benchmarks.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pao.core.errors import AppError, error_response
from pao.core.input_text import (
    URL_CONTROL,
    MultipartTextScanner,
    PathPattern,
    body_refusal,
    pairs_refusal,
    path_refusal,
    query_has_control,
)
from pao.core.request_limits import BodyLimit, RouteLimits, resolve_limits
from pao.core.route_table import DeclaredRoute

# Bodies that are framing, not text (engine.io's polling transport).
UNSCANNED_BODIES = ("/socket.io/",)
CLOSE = (b"connection", b"close")


class BodyRefused(HTTPException):
    """Raised from the receive channel once the edge refused the body being read."""

    def __init__(self, refusal: AppError) -> None:
        super().__init__(status_code=refusal.status_code, detail=refusal.code)


async def _answer(
    refusal: AppError, scope: Scope, receive: Receive, send: Send, *, unread: bool = True
) -> None:
    """Send the refusal. ``unread``: the body (if any) was not read to its end, so the server
    closes the connection after the answer instead of reading on to find the next request."""
    response = error_response(refusal.status_code, refusal.body())
    if unread:
        response.headers["Connection"] = "close"
    await response(scope, receive, send)


def _body_headers(scope: Scope) -> tuple[int | None, bool, bytes]:
    """(Content-Length, chunked, Content-Type) of the request."""
    length: int | None = None
    chunked = False
    content_type = b""
    for name, value in scope["headers"]:
        if name == b"content-length":
            length = int(value) if value.isdigit() else None
        elif name == b"transfer-encoding":
            chunked = True
        elif name == b"content-type":
            content_type = value  # as sent: a multipart boundary is case-sensitive
    return length, chunked, content_type


class _Stream:
    """The receive and send channels of one streamed (multipart) request."""

    __slots__ = (
        "_receive",
        "_send",
        "complete",
        "limit",
        "received",
        "refusal",
        "scanner",
        "started",
    )

    def __init__(
        self, receive: Receive, send: Send, limit: BodyLimit, scanner: MultipartTextScanner | None
    ) -> None:
        self._receive = receive
        self._send = send
        self.limit = limit
        self.scanner = scanner
        self.received = 0
        self.refusal: AppError | None = None
        self.started = False  # the app's answer started before any refusal
        self.complete = False  # the body was read to its end

    async def receive(self) -> Message:
        if self.refusal is not None:
            raise BodyRefused(self.refusal)
        message = await self._receive()
        if message["type"] == "http.request":
            chunk: bytes = message.get("body", b"")
            self.received += len(chunk)
            self.complete = not message.get("more_body")
            if self.received > self.limit.max_bytes:
                self.refusal = self.limit.refusal
            elif self.scanner is not None:
                self.refusal = self.scanner.feed(chunk, last=not message.get("more_body"))
            if self.refusal is not None:
                raise BodyRefused(self.refusal)
        return message

    async def send(self, message: Message) -> None:
        if self.refusal is None or self.started:
            if message["type"] == "http.response.start":
                self.started = True
                if not self.complete:
                    # The app answers before the body's end (a refused login, a malformed
                    # form): the server closes the connection after the answer instead of
                    # reading the rest of the body to find the next request.
                    message = {**message, "headers": [*message.get("headers", ()), CLOSE]}
            await self._send(message)
        # Else the app is answering the refused body with an error of its own: drop it, the
        # edge answers (once the app returns).


class EdgeMiddleware:
    def __init__(
        self, app: ASGIApp, *, limits: RouteLimits, path_patterns: list[PathPattern]
    ) -> None:
        self.app = app
        self.limits = limits
        self.path_patterns = path_patterns

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if URL_CONTROL.search(path) is not None:
            refusal = path_refusal(path, scope["method"], self.path_patterns)
            await _answer(refusal, scope, receive, send)
            return
        query: bytes = scope["query_string"]
        if query and query_has_control(query):
            await _answer(pairs_refusal(query.decode("latin-1"), URL_CONTROL), scope, receive, send)
            return
        length, chunked, content_type = _body_headers(scope)
        # HTTP/1.1 announces a body by one of the two headers; HTTP/2 need not.
        if length == 0 or (length is None and not chunked and scope.get("http_version") != "2"):
            await self.app(scope, receive, send)
            return
        media_type = content_type.lower()
        multipart = media_type.startswith(b"multipart/form-data")
        limit = self.limits.limit_for(scope["method"], path, multipart=multipart)
        if length is not None and length > limit.max_bytes:
            await _answer(limit.refusal, scope, receive, send)
            return
        scanned = not path.startswith(UNSCANNED_BODIES)
        if multipart:
            await self._stream(scope, receive, send, limit, scanned, content_type)
        else:
            await self._whole(scope, receive, send, limit, scanned, media_type)

    async def _whole(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        limit: BodyLimit,
        scanned: bool,
        content_type: bytes,
    ) -> None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away: nobody to answer
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > limit.max_bytes:
                await _answer(limit.refusal, scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
        if scanned:
            refusal = body_refusal(body, content_type)
            if refusal is not None:
                await _answer(refusal, scope, receive, send, unread=False)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # blocks until the client disconnects
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _stream(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        limit: BodyLimit,
        scanned: bool,
        content_type: bytes,
    ) -> None:
        scanner = MultipartTextScanner(content_type) if scanned else None
        if scanner is not None and scanner.refusal is not None:
            await _answer(scanner.refusal, scope, receive, send)
            return
        stream = _Stream(receive, send, limit, scanner)
        try:
            await self.app(scope, stream.receive, stream.send)
        except BodyRefused:
            if stream.started:
                raise
        if stream.refusal is not None and not stream.started:
            await _answer(stream.refusal, scope, receive, send)


def install_edge(
    app: FastAPI, routes: Sequence[DeclaredRoute], limits: Mapping[str, BodyLimit]
) -> None:
    """Add the edge as the outermost of the app's own middleware, given every route of the app
    (:func:`pao.core.route_table.declared_routes`): it resolves the declared limits and the
    routes' path patterns now."""
    route_limits = resolve_limits(routes, limits)
    patterns = [
        (route.methods, route.path_regex)
        for route in routes
        # Routes with parameters only; a mount's remainder is not a parameter.
        if isinstance(route.route, Route) and route.path_regex.groupindex
    ]
    app.add_middleware(EdgeMiddleware, limits=route_limits, path_patterns=patterns)
