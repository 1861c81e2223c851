"""Graceful shutdown: a process told to stop finishes what it started and takes nothing new.

uvicorn already does most of it on SIGTERM: it closes the listening socket, closes idle
keep-alive connections, waits up to ``--timeout-graceful-shutdown`` for the requests in flight
(and their background tasks, e.g. a payout called after a withdrawal's approval commits), and
only then runs the app's shutdown. What it does not do is tell the load balancer, nor refuse a
request that arrives on a kept-alive connection in the meantime. :class:`Drain` does both: the
signal flips it, ``/readyz`` then answers 503 and :class:`DrainMiddleware` answers every other
new request 503 ``SERVICE_UNAVAILABLE`` with ``Connection: close`` (nothing of it ran, so a
client or proxy may safely send it again, to another process).

The flag is flipped from the signal handler uvicorn installs (:func:`watch_signals` wraps it
while the app runs), so it works alike for ``pao serve`` and ``pao serve --workers N``.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType
from typing import Any

import structlog
from starlette.types import ASGIApp, Receive, Scope, Send

log = structlog.get_logger(__name__)

# Probes keep answering while the process drains: /readyz to say "no", /healthz to say "alive".
PROBE_PATHS = frozenset({"/healthz", "/readyz"})
_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Drain:
    """Whether this app has been told to stop (one per app, kept on ``app.state.drain``)."""

    def __init__(self) -> None:
        self.draining = False

    def begin(self, reason: str) -> None:
        if not self.draining:
            log.info("draining: refusing new requests", reason=reason)
        self.draining = True


def watch_signals(drain: Drain) -> Callable[[], None]:
    """Flip ``drain`` on SIGTERM/SIGINT, then let uvicorn's own handler run; returns the undo.

    Only uvicorn's handler is wrapped (a test runner's or a shell's is left alone), and only on
    the main thread, where signal handlers live."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    wrapped: dict[int, Any] = {}
    for sig in _SIGNALS:
        previous = signal.getsignal(sig)
        owner = getattr(previous, "__self__", None)
        if owner is None or type(owner).__module__.split(".")[0] != "uvicorn":
            continue
        wrapped[sig] = previous

        def handler(signum: int, frame: FrameType | None, _previous: Any = previous) -> None:
            drain.begin(signal.Signals(signum).name)
            _previous(signum, frame)

        signal.signal(sig, handler)

    def undo() -> None:
        for sig, previous in wrapped.items():
            signal.signal(sig, previous)

    return undo


class DrainMiddleware:
    """While draining, answer new HTTP requests (probes aside) 503 and close the connection."""

    def __init__(self, app: ASGIApp, drain: Drain) -> None:
        self.app = app
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or not self.drain.draining
            or scope.get("path", "") in PROBE_PATHS
        ):
            await self.app(scope, receive, send)
            return
        body = b'{"message":"SERVICE_UNAVAILABLE"}'
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"retry-after", b"1"),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
