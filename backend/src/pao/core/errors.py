"""The error model of the API.

Every refusal is an :class:`AppError` carrying a code from the spec's error catalogue (§8) and
an HTTP status; the handlers here turn it into ``{"message": CODE}``. Hierarchy::

    AppError
     ├── BadRequest (400)      business rule refused the request
     ├── Unauthorized (401)    no, bad or expired token → "invalid-token"
     ├── Forbidden (403)
     ├── NotFound (404)
     ├── Conflict (409)        e.g. IDEMPOTENCY_KEY_REUSED, EXISTING_USER
     ├── Gone (410)            the site is terminated → "gone"
     ├── TooManyRequests (429) rate limits
     └── ServiceUnavailable (503) the database cannot be reached → SERVICE_UNAVAILABLE

Each domain subclasses these in its own ``exceptions.py``. An error that must still commit
what the request wrote (a burned OTP attempt, a counted login failure) sets
``keeps_changes = True``.

What a client can cause without reaching a route answers a catalogue code too: a body that
cannot be read (JSON that does not parse, a content type the route does not take, a broken
multipart form) → 400 / 415 ``BODY_INVALID``; a path that exists with another method → 405
``METHOD_NOT_ALLOWED`` (with ``Allow``); fields that parse but do not fit → 422 ``KEY_INVALID``
/ ``KEY_MISSING`` with the ``field``.

A database outage (connection refused, dropped, the pool exhausted, PostgreSQL shutting down,
SQLite locked past its busy timeout) answers 503 ``SERVICE_UNAVAILABLE`` with ``Retry-After``,
from any route or middleware (:class:`DatabaseOutageMiddleware`), never a 500: the request's
transaction was rolled back or its outcome is unknown, and a money call retried with the same
``Idempotency-Key`` replays the first answer, so retrying is always safe. Every error answer
carries ``Cache-Control: no-store``: a cached refusal (a 410 of a site since reopened) would
outlive its cause.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

import asyncpg  # type: ignore[import-untyped]
import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy import exc as sa_exc
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pao.core.db import DatabaseUnreachable
from pao.core.logging import redact_path

log = structlog.get_logger(__name__)

CATALOGUE_CODE = re.compile(r"[A-Z][A-Z0-9_]+")
# How long a client should wait before retrying a call refused during a database outage.
RETRY_AFTER_SECONDS = 5


class AppError(Exception):
    status_code: ClassVar[int] = 400
    code: str = "INTERNAL_SERVER_ERROR"
    keeps_changes: bool = False
    headers: ClassVar[dict[str, str]] = {}

    def __init__(
        self, code: str | None = None, *, keeps_changes: bool | None = None, **extra: Any
    ) -> None:
        self.code = code or self.code
        if keeps_changes is not None:
            self.keeps_changes = keeps_changes
        self.extra = extra
        super().__init__(self.code)

    def body(self) -> dict[str, Any]:
        return {"message": self.code, **self.extra}


class BadRequest(AppError):
    status_code = 400


class CurrencyNotOffered(BadRequest):
    """What the member asked is not offered in their wallet's currency: the operator set no
    value of its money rule for that currency (a kip withdrawal limit), or the bonus, prize or
    wheel was defined in another currency (ADR 0020)."""

    code = "CURRENCY_NOT_OFFERED"


class Unauthorized(AppError):
    status_code = 401
    code = "invalid-token"


class Forbidden(AppError):
    status_code = 403
    code = "UNAUTHORIZED"


class NotFound(AppError):
    status_code = 404
    code = "NO_DATA"


class Conflict(AppError):
    status_code = 409


class Gone(AppError):
    status_code = 410
    code = "gone"


class TooManyRequests(AppError):
    status_code = 429
    code = "REQUEST_LIMIT"


class Unprocessable(AppError):
    status_code = 422
    code = "KEY_INVALID"


class ServiceUnavailable(AppError):
    status_code = 503
    code = "SERVICE_UNAVAILABLE"
    headers: ClassVar[dict[str, str]] = {"Retry-After": str(RETRY_AFTER_SECONDS)}


def error_response(
    status_code: int, body: dict[str, Any], headers: Mapping[str, str] | None = None
) -> JSONResponse:
    # Never cached: a stored refusal (a 410 of a site since reopened) outlives its cause.
    headers = {"Cache-Control": "no-store", **(headers or {})}
    return JSONResponse(status_code=status_code, content=body, headers=headers)


# The driver errors that mean "the database cannot be reached now", not "this is wrong".
_DATABASE_FAILURES: tuple[type[BaseException], ...] = (
    DatabaseUnreachable,  # connecting failed (refused, DNS, timeout): pao.core.db
    sa_exc.TimeoutError,  # no pooled connection came free in time
    sa_exc.DisconnectionError,
    # SQLite's "database is locked" (past the busy timeout), "disk I/O error", "unable to open
    # database file"; psycopg's connection failures. SQLAlchemy maps no asyncpg error here:
    # asyncpg's own classes follow.
    sa_exc.OperationalError,
    asyncpg.PostgresConnectionError,  # the connection dropped, or the server refused it
    asyncpg.CannotConnectNowError,  # the server is starting or shutting down
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,
)


def is_database_outage(exc: BaseException) -> bool:
    """Whether ``exc`` (or the driver error behind it) says the database cannot be reached.

    SQLAlchemy wraps a driver's error (``DBAPIError.orig``, itself raised from the driver's
    own exception); a connection found broken is flagged ``connection_invalidated``.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, _DATABASE_FAILURES):
            return True
        if isinstance(current, sa_exc.DBAPIError):
            if current.connection_invalidated:
                return True
            orig: BaseException | None = current.orig
            current = orig if orig is not None else current.__cause__
        else:
            current = current.__cause__
    return False


def _describe(exc: BaseException) -> str:
    """The error for a log line: class and driver message, never SQL or its parameters."""
    if isinstance(exc, sa_exc.DBAPIError) and exc.orig is not None:
        return f"{type(exc).__name__}: {type(exc.orig).__name__}: {str(exc.orig)[:200]}"
    return f"{type(exc).__name__}: {str(exc)[:200]}"


class DatabaseOutageMiddleware:
    """Answers 503 ``SERVICE_UNAVAILABLE`` for a database outage raised anywhere below it.

    A middleware, not an exception handler: FastAPI's handlers see only what routes raise,
    and the termination check (a middleware) reads the database too. It must sit outside every
    middleware that touches the database (``create_app`` adds it after them).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:
            if started or not is_database_outage(exc):
                raise
            # A warning, not a traceback per request: an outage fails every call at once.
            log.warning(
                "database unavailable",
                method=scope["method"],
                path=redact_path(scope["path"]),
                error=_describe(exc),
            )
            outage = ServiceUnavailable()
            response = error_response(outage.status_code, outage.body(), outage.headers)
            await response(scope, receive, send)


# Pydantic's error types, as the rule a form says beside the field ("must be at least 1"),
# and the bounds each carries (its ``ctx``), named as the domain's own refusals name them.
_RULES = {
    "missing": "required",
    "greater_than_equal": "min",
    "greater_than": "above",
    "less_than_equal": "max",
    "less_than": "below",
    "string_too_short": "minLength",
    "too_short": "minLength",
    "string_too_long": "maxLength",
    "too_long": "maxLength",
    "int_parsing": "number",
    "int_type": "number",
    "int_from_float": "wholeNumber",
    "float_parsing": "number",
    "float_type": "number",
    "decimal_parsing": "number",
    "decimal_type": "number",
    "decimal_max_places": "decimals",
    "finite_number": "number",
    "string_pattern_mismatch": "format",
    "enum": "choice",
    "literal_error": "choice",
    "datetime_parsing": "dateTime",
    "datetime_from_date_parsing": "dateTime",
    "datetime_type": "dateTime",
}
_BOUNDS = {
    "ge": "min",
    "gt": "min",
    "le": "max",
    "lt": "max",
    "min_length": "min",
    "max_length": "max",
    "decimal_places": "max",
}


def _rule_of(error: Mapping[str, Any]) -> dict[str, Any]:
    """The broken rule of one pydantic error and its bounds: ``{"rule": "min", "min": 1}``.
    A validator of Pao's own names its rule in the error's context (``rule``, ``min``, ``max``)."""
    context = error.get("ctx") or {}
    rule = context.get("rule") or _RULES.get(str(error.get("type", "")))
    if not isinstance(rule, str):
        return {}
    found: dict[str, Any] = {"rule": rule}
    for key, value in context.items():
        bound = key if key in ("min", "max") else _BOUNDS.get(key)
        if bound and isinstance(value, int | float) and not isinstance(value, bool):
            found[bound] = value
    return found


# The back office's forms say the broken rule beside the field; the player app's API keeps the
# spec's {message, field} (spec §8), which its clients read.
_RULES_FOR = "/api/backoffice/"


def _validation_response(exc: RequestValidationError, path: str) -> JSONResponse:
    errors = exc.errors()
    first = errors[0] if errors else {}
    kind = str(first.get("type", ""))
    if kind == "json_invalid":
        # The body is not JSON at all: there is no field to name.
        return error_response(400, {"message": "BODY_INVALID"})
    if isinstance(exc.body, bytes | bytearray):
        # A JSON route given another content type: FastAPI hands the raw bytes to validation.
        return error_response(415, {"message": "BODY_INVALID"})
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
    # A validator may raise PydanticCustomError whose type is a catalogue code of its own
    # (e.g. TRANSFER_MINIMUM); pydantic's own types are lower-case.
    if CATALOGUE_CODE.fullmatch(kind):
        code = kind
    elif kind == "missing":
        code = "KEY_MISSING"
    else:
        code = "KEY_INVALID"
    body = {"message": code, "field": ".".join(loc)}
    if path.startswith(_RULES_FOR):
        body.update(_rule_of(first))
    return error_response(422, body)


# Starlette and FastAPI raise HTTPException with an English sentence as its detail; the API
# answers codes. 400 is what a multipart body that cannot be parsed raises.
_HTTP_CODES = {
    400: "BODY_INVALID",
    401: "invalid-token",
    404: "NO_DATA",
    405: "METHOD_NOT_ALLOWED",
    415: "BODY_INVALID",
}


def _http_code(exc: StarletteHTTPException) -> str:
    if exc.status_code in _HTTP_CODES:
        return _HTTP_CODES[exc.status_code]
    detail = str(exc.detail)
    if CATALOGUE_CODE.fullmatch(detail):
        return detail
    return "INTERNAL_SERVER_ERROR" if exc.status_code >= 500 else "KEY_INVALID"


def _allowed_methods(request: Request) -> str:
    """Every method the path takes. Starlette's own ``Allow`` names only the first route that
    matched the path, and a path may have one route per method (GET and POST /sandbox/sms)."""
    path = request.scope["path"]  # the app is served at the root, as the edge reads it too
    methods: set[str] = set()
    for route in request.app.state.declared_routes:
        if route.path_regex.match(path):
            methods.update(route.methods)
    return ", ".join(sorted(methods))


def install_error_handlers(app: FastAPI) -> None:
    """The handlers, and :class:`DatabaseOutageMiddleware` as the outermost middleware so far:
    call it after adding every middleware that may touch the database."""

    @app.exception_handler(AppError)
    async def _app_error(_request: Request, exc: AppError) -> JSONResponse:
        return error_response(exc.status_code, exc.body(), exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _validation_response(exc, request.url.path)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = _allowed_methods(request)
        return error_response(exc.status_code, {"message": _http_code(exc)}, headers)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        # The path, redacted: an auto-login path carries a game password.
        log.exception(
            "unhandled error",
            method=request.method,
            path=redact_path(request.url.path),
            exc_info=exc,
        )
        return error_response(500, {"message": "INTERNAL_SERVER_ERROR"})

    app.add_middleware(DatabaseOutageMiddleware)
