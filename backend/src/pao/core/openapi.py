"""OpenAPI helpers: every route documents the catalogue codes it can answer with.

The codes themselves (the spec's catalogue and those Pao added) are listed and described in
``frontend/src/lib/error-codes.json``; ``tests/unit/test_error_catalogue.py`` checks that every
code a route documents, or an error class carries, is there.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
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


# What FastAPI documents for a route with parameters that documents no 422 itself.
_FASTAPI_422 = "Validation Error"
_FASTAPI_422_SCHEMAS = ("HTTPValidationError", "ValidationError")


def document_validation_errors(app: FastAPI) -> None:
    """Document 422 as the app answers it (``KEY_MISSING | KEY_INVALID``, pao.core.errors) on
    every route that leaves it to FastAPI, whose default describes a "Validation Error" body the
    app never sends; its schemas go too once nothing refers to them."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = generate()
        ours = {
            "description": VALIDATION[422]["description"],
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
        }
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                responses = operation.get("responses", {})
                if responses.get("422", {}).get("description") == _FASTAPI_422:
                    responses["422"] = ours
        schemas = schema.get("components", {}).get("schemas", {})
        for name in _FASTAPI_422_SCHEMAS:  # the outer one first: it refers to the other
            if f'"#/components/schemas/{name}"' not in json.dumps(schema):
                schemas.pop(name, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
