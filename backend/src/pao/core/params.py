"""What a request may carry: ids bounded to the database's range, and the base of request bodies.

* :data:`DbId` is the type of every id in a path: digits only (``1.0`` is not an id). Ids are
  ``BIGINT`` columns: a number beyond 2^63 - 1 cannot be bound as a query parameter
  (PostgreSQL's driver raises, a 500), so such a path answers 422 ``KEY_INVALID`` before a
  query is built. ``tests/api/test_request_bounds.py``
  walks the whole OpenAPI document and fails on any integer parameter or body field without a
  maximum, so a new route cannot forget it.
* :class:`RequestModel` is the base of every request body (and query) model. Pydantic's lax mode
  takes ``true`` for ``1`` in an integer or number field; a client sending a boolean where a
  number belongs has a bug, and the contract's numbers are numbers, so the base refuses it with
  ``KEY_INVALID`` (numeric strings stay accepted where pydantic accepts them). Money amounts
  (:data:`pao.kit.money.WireAmount`) already refuse booleans themselves. The other way round
  too: a number is not a boolean (lax mode takes ``0`` for ``false``), and a number is not a
  date-time (lax mode reads ``0.5`` as seconds since 1970).
"""

from __future__ import annotations

import re
import types
from datetime import date, datetime
from decimal import Decimal
from typing import Annotated, Any, Union, get_args, get_origin

from fastapi import Path
from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    NaiveDatetime,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

# The largest value of a BIGINT (PostgreSQL, SQLite's INTEGER alike).
MAX_DB_INT = 2**63 - 1
# The largest value of an INTEGER column on PostgreSQL (counts, weights, percentages).
MAX_DB_INT32 = 2**31 - 1
# An id in a JSON body: its bound reaches the contract as a JSON number (a float), where
# 2^63 - 1 would round up past BIGINT; 2^53 - 1 is exact there (and in the browser).
MAX_BODY_ID = 2**53 - 1

_DIGITS = re.compile(r"[0-9]+")


def _written_in_digits(value: Any) -> Any:
    """A path id is digits only: pydantic's lax int also takes ``1.0``, ``+1``, `` 1`` and
    ``1_000``, other spellings of an id that a client with a bug sends and a cache or a log sees
    as another address. Refused like any bad id."""
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise PydanticCustomError("KEY_INVALID", "an id is written in digits only")
    return value


DbId = Annotated[int, Path(ge=1, le=MAX_DB_INT), BeforeValidator(_written_in_digits)]

_NUMBERS = (int, float, Decimal)


def _arms(annotation: Any) -> list[Any]:
    """The concrete types a field annotation admits (Annotated and unions unwrapped)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _arms(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [arm for member in get_args(annotation) for arm in _arms(member)]
    return [annotation]


def refuses_bool(annotation: Any) -> bool:
    """A field that takes a number and not a boolean (``bool`` is a subclass of ``int``)."""
    arms = _arms(annotation)
    if any(arm is bool or arm is Any for arm in arms):
        return False
    return any(isinstance(arm, type) and issubclass(arm, _NUMBERS) for arm in arms)


def _takes_only(annotation: Any, kinds: tuple[type, ...]) -> bool:
    """A field whose every type (None aside) is one of ``kinds``."""
    arms = [arm for arm in _arms(annotation) if arm is not type(None)]
    return bool(arms) and all(isinstance(arm, type) and issubclass(arm, kinds) for arm in arms)


# Pydantic's constrained date-times are classes of their own, not subclasses of datetime.
_DATE_TIMES: tuple[type, ...] = (datetime, date, AwareDatetime, NaiveDatetime)
_NUMERIC_TEXT = re.compile(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*")


class RequestModel(BaseModel):
    """Base of request models: booleans, numbers and date-times are not each other (see the
    module docstring)."""

    @field_validator("*", mode="before")
    @classmethod
    def _no_lax_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        if info.field_name is None:
            return value
        annotation = cls.model_fields[info.field_name].annotation
        if isinstance(value, bool):
            if refuses_bool(annotation):
                raise PydanticCustomError("KEY_INVALID", "a boolean is not a number")
        elif isinstance(value, int | float | Decimal):
            if _takes_only(annotation, (bool,)):
                raise PydanticCustomError("KEY_INVALID", "a number is not a boolean")
            if _takes_only(annotation, _DATE_TIMES):
                raise PydanticCustomError("KEY_INVALID", "a number is not a date-time")
        elif (
            isinstance(value, str)
            and _NUMERIC_TEXT.fullmatch(value)
            and _takes_only(annotation, _DATE_TIMES)
        ):
            raise PydanticCustomError("KEY_INVALID", "a number is not a date-time")
        return value
