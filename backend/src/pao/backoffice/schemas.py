"""Wire shapes every back-office area builds on (camelCase, like the player API)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from pao.core.params import RequestModel


class _Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class _WireIn(RequestModel, _Wire):
    """A request body or query: a boolean is not a number (pao.core.params)."""
