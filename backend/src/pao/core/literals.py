"""Constants written into a statement once, as SQL literals (issue 36, ADR 0039).

The money requests that are one statement (:mod:`pao.wallet.withdrawal_statement`,
:mod:`pao.games.transfer_statement`) pass a function a dozen values that never change: kinds,
statuses, labels. They stay in Python, as ADR 0018 wants, but are written into the statement
when it is built, so that the driver encodes only the values that change per request. Only our
own constants go through here, and a quote or a backslash in one is refused.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, String, literal_column


def quoted(value: str) -> str:
    """``value`` as an SQL string literal."""
    if "'" in value or "\\" in value:
        raise ValueError(f"not a constant to write into SQL: {value!r}")
    return f"'{value}'"


def constant(value: str) -> ColumnElement[Any]:
    """``value`` as a text literal of the statement."""
    return literal_column(quoted(value), String())
