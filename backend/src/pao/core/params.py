"""What a request may carry: ids bounded to the database's range, and the base of request bodies.

* :data:`DbId` is the type of every id in a path. Ids are ``BIGINT`` columns: a number beyond
  2^63 - 1 cannot be bound as a query parameter (PostgreSQL's driver raises, a 500), so such a
  path answers 422 ``KEY_INVALID`` before a query is built. ``tests/api/test_request_bounds.py``
  walks the whole OpenAPI document and fails on any integer parameter or body field without a
  maximum, so a new route cannot forget it.
* :class:`RequestModel` is the base of every request body (and query) model. Pydantic's lax mode
  takes ``true`` for ``1`` in an integer or number field; a client sending a boolean where a
  number belongs has a bug, and the contract's numbers are numbers, so the base refuses it with
  ``KEY_INVALID`` (numeric strings stay accepted where pydantic accepts them). Money amounts
  (:data:`pao.kit.money.WireAmount`) already refuse booleans themselves.
"""

from __future__ import annotations

import types
from decimal import Decimal
from typing import Annotated, Any, Union, get_args, get_origin

from fastapi import Path
from pydantic import BaseModel, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

# The largest value of a BIGINT (PostgreSQL, SQLite's INTEGER alike).
MAX_DB_INT = 2**63 - 1

DbId = Annotated[int, Path(ge=1, le=MAX_DB_INT)]

_NUMBERS = (int, float, Decimal)


def _arms(annotation: Any) -> list[Any]:
    """The concrete types a field annotation admits (Annotated and unions unwrapped)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _arms(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [arm for member in get_args(annotation) for arm in _arms(member)]
    return [annotation]


def _refuses_bool(annotation: Any) -> bool:
    """A field that takes a number and not a boolean (``bool`` is a subclass of ``int``)."""
    arms = _arms(annotation)
    if any(arm is bool or arm is Any for arm in arms):
        return False
    return any(isinstance(arm, type) and issubclass(arm, _NUMBERS) for arm in arms)


class RequestModel(BaseModel):
    """Base of request models: a boolean is not a number (see the module docstring)."""

    @field_validator("*", mode="before")
    @classmethod
    def _no_boolean_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        if isinstance(value, bool) and info.field_name is not None:
            field = cls.model_fields[info.field_name]
            if _refuses_bool(field.annotation):
                raise PydanticCustomError("KEY_INVALID", "a boolean is not a number")
        return value
