"""OpenAPI helpers: every route documents the catalogue codes it can answer with."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class ErrorBody(BaseModel):
    message: str = Field(description="A code of the error catalogue (spec §8).")
    field: str | None = Field(default=None, description="The offending field, on 422.")


def errors(**by_status: str) -> dict[int | str, dict[str, Any]]:
    """``errors(_400="MONEY_NOT_ENOUGH | BONUS_REMAINING", _401="invalid-token")``."""
    return {
        int(status.lstrip("_")): {"model": ErrorBody, "description": codes}
        for status, codes in by_status.items()
    }


AUTH_ERRORS = errors(_401="invalid-token", _410="gone")
VALIDATION = errors(_422="KEY_MISSING | KEY_INVALID")
