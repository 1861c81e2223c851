"""What every operator command shares: one transaction, who is acting, amounts, errors."""

from __future__ import annotations

import asyncio
import getpass
from collections.abc import Awaitable, Callable
from decimal import Decimal, InvalidOperation
from typing import NoReturn, TypeVar

import typer
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.db import create_engine, create_sessionmaker
from pao.core.errors import AppError
from pao.core.settings import get_settings
from pao.kit.money import WireAmount
from pao.kit.states import IllegalTransition

T = TypeVar("T")

_WIRE_AMOUNT: TypeAdapter[int] = TypeAdapter(WireAmount)


class OpsError(Exception):
    """A refusal worded for the operator; printed as ``error: <message>``."""


def operator() -> str:
    """The actor recorded for an operator action: ``ops:<OS user>``."""
    try:
        user = getpass.getuser()
    except (OSError, KeyError):  # no login name (e.g. a bare container)
        user = "unknown"
    return f"ops:{user}"[:80]


def parse_amount(text: str) -> int:
    """A command-line amount in baht (kip), at most 2 decimals, > 0 → minor units.

    The same rules as a wire amount (:mod:`pao.kit.money`), read from text."""
    try:
        minor = _WIRE_AMOUNT.validate_python(Decimal(text.strip()))
    except (InvalidOperation, ValidationError):
        raise OpsError(
            f"invalid amount {text!r}: give baht with at most 2 decimals, e.g. 100 or 99.50"
        ) from None
    if minor <= 0:
        raise OpsError(f"invalid amount {text!r}: it must be more than 0")
    return minor


def format_money(minor: int, currency: str = "") -> str:
    text = f"{Decimal(minor).scaleb(-2):,.2f}"
    return f"{text} {currency}" if currency else text


def describe(exc: AppError) -> str:
    """One line for a domain refusal: its catalogue code and what it was about."""
    details = ", ".join(f"{key}={value}" for key, value in exc.extra.items())
    return f"{exc.code} ({details})" if details else exc.code


def fail(message: str) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(1)


def run(work: Callable[[AsyncSession], Awaitable[T]]) -> T:
    """Run ``work`` in one transaction on the configured database and commit it.

    Any refusal rolls everything back, prints one ``error:`` line and exits with status 1."""

    async def main() -> T:
        engine = create_engine(get_settings())
        try:
            async with create_sessionmaker(engine)() as session:
                result = await work(session)
                await session.commit()
                return result
        finally:
            await engine.dispose()

    try:
        return asyncio.run(main())
    except OpsError as exc:
        fail(str(exc))
    except AppError as exc:
        fail(describe(exc))
    except (IllegalTransition, ValueError) as exc:
        # ValueError: the site's UnknownSetting / InvalidSettingValue, worded for operators.
        fail(str(exc))
    except SQLAlchemyError as exc:
        detail = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        missing_schema = "no such table" in detail or "does not exist" in detail
        fail(f"database: {detail}" + (" (run `pao migrate` first)" if missing_schema else ""))
    except OSError as exc:
        fail(f"database unreachable: {exc}")
