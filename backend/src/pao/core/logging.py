"""Structured logging: one JSON object per line in production, readable lines in development.

Secrets never reach a log line. Some URLs carry one because the spec's paths do (auto-login puts
the game password in the path, ``GET /api/autoLogin/imi/{username}/{password}``; the sandbox
game page takes its session token in the path): every route parameter whose name says it is a
secret (see :func:`is_secret_name`) is replaced by ``***`` in the access log that uvicorn writes
(a filter on the ``uvicorn.access`` logger) and wherever Pao logs a request path itself
(:func:`redact_path`), and so are query parameters with such names, and those that carry what
staff search for (a phone, an account number, a name: :data:`_PERSONAL_QUERY`). The routes
declare which segment is secret by naming it; nothing here lists paths by hand.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from typing import TextIO, cast
from urllib.parse import parse_qsl, urlencode

import structlog
from starlette.routing import compile_path

from pao.core.settings import Settings

REDACTED = "***"
# A parameter whose lower-cased name contains one of these holds a secret.
_SECRET_WORDS = ("password", "passwd", "pwd", "token", "secret")
# Query parameters that carry what staff search for: a member's phone, bank account or name
# (the back office's member search, the payment-matching dialog, the queue filters). Personal
# data, not secrets, but no business of a log reader either: masked the same way.
_PERSONAL_QUERY = frozenset(
    {"q", "search", "phone", "account", "accountno", "bankaccountno", "name", "holder", "member"}
)
_PARAM = re.compile(r"{([^}:]+)(?::[^}]*)?}")


def is_secret_name(name: str) -> bool:
    lowered = name.lower()
    return any(word in lowered for word in _SECRET_WORDS)


class _SecretPaths:
    """The route templates with a secret path parameter, as regexes naming their segments."""

    def __init__(self) -> None:
        self._patterns: dict[str, tuple[re.Pattern[str], tuple[str, ...]]] = {}

    def add(self, template: str) -> None:
        secret = tuple(name for name in _PARAM.findall(template) if is_secret_name(name))
        if secret and template not in self._patterns:
            regex, _format, _convertors = compile_path(template)
            self._patterns[template] = (regex, secret)

    def redact(self, path: str) -> str:
        for regex, names in self._patterns.values():
            match = regex.match(path)
            if match is None:
                continue
            # Splice from the right so that earlier spans keep their offsets.
            spans = sorted((match.span(name) for name in names), reverse=True)
            for start, end in spans:
                path = path[:start] + REDACTED + path[end:]
            return path
        return path


_secret_paths = _SecretPaths()


def register_secret_routes(templates: Iterable[str]) -> None:
    """Learn the route templates (``/api/autoLogin/imi/{username}/{password}``) to redact."""
    for template in templates:
        _secret_paths.add(template)


def redact_path(path_with_query: str) -> str:
    """``path_with_query`` with secret path segments and query values replaced by ``***``."""
    path, sep, query = path_with_query.partition("?")
    path = _secret_paths.redact(path)
    if not sep:
        return path
    pairs = parse_qsl(query, keep_blank_values=True)
    if any(_masked(key) for key, _ in pairs):
        query = urlencode(
            [(key, REDACTED if _masked(key) else value) for key, value in pairs], safe="*"
        )
    return f"{path}?{query}"


def _masked(name: str) -> bool:
    return is_secret_name(name) or name.lower() in _PERSONAL_QUERY


class AccessLogRedactor(logging.Filter):
    """Redacts the request line of uvicorn's access log (its third argument is the path)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redact_path(args[2]), *args[3:])
        return True


_access_filter = AccessLogRedactor()


class _CurrentStderr:
    """Whatever ``sys.stderr`` is at write time: loggers are cached on first use, and a test
    runner (pytest, click's CliRunner) swaps and closes the stream it captured."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(settings: Settings) -> None:
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    tail: list[structlog.types.Processor] = (
        [structlog.processors.format_exc_info, structlog.processors.JSONRenderer()]
        if settings.json_logs
        # Plain tracebacks: rich ones print local variables, which may hold secrets.
        else [
            structlog.dev.ConsoleRenderer(
                colors=False, exception_formatter=structlog.dev.plain_traceback
            )
        ]
    )
    level = logging.getLevelNamesMapping()[settings.log_level.upper()]
    structlog.configure(
        processors=[*shared, *tail],
        # Below the level, a log call is a no-op method (structlog's filtering logger): the
        # debug lines of frequent routine work cost nothing when not written.
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, _CurrentStderr())),
        cache_logger_on_first_use=True,
    )
    # Other libraries' loggers: never below info (asyncio, SQLAlchemy and the like narrate
    # their internals at debug).
    logging.basicConfig(level=max(level, logging.INFO), stream=sys.stderr, format="%(message)s")
    # httpx narrates every adapter request at INFO; adapters log what matters themselves.
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # Alembic narrates every plugin it sets up at INFO, on import (`pao migrate`, and the
    # readiness probe's revision check): the commands report the outcome themselves.
    logging.getLogger("alembic").setLevel(logging.WARNING)
    # On the logger, not a handler: uvicorn (`pao serve`) configures the access log's handlers
    # before it builds the app, and its records pass the logger's filters whatever handler
    # writes them. Adding the same filter twice is a no-op.
    logging.getLogger("uvicorn.access").addFilter(_access_filter)
