"""Structured logging: one JSON object per line in production, readable lines in development."""

from __future__ import annotations

import logging
import sys
from typing import TextIO, cast

import structlog

from pao.core.settings import Settings


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
    structlog.configure(
        processors=[*shared, *tail],
        logger_factory=structlog.PrintLoggerFactory(file=cast(TextIO, _CurrentStderr())),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
    # httpx narrates every adapter request at INFO; adapters log what matters themselves.
    logging.getLogger("httpx").setLevel(logging.WARNING)
