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
    rule: str | None = Field(
        default=None,
        description="On a back-office 422, the rule the field breaks, for a form to say beside "
        "it: required, "
        "min, above, max, below, minLength, maxLength, number, wholeNumber, decimals, format, "
        "choice, dateTime, or a domain rule (needsAmount, tooLarge); its bounds in min / max.",
    )
    min: float | None = Field(default=None, description="The rule's lower bound, when it has one.")
    max: float | None = Field(default=None, description="The rule's upper bound, when it has one.")
    retry_after: int | None = Field(
        default=None,
        alias="retryAfter",
        description="Seconds until the same call is taken again (REQUEST_LIMIT_1MIN).",
    )
    attempts_left: int | None = Field(
        default=None,
        alias="attemptsLeft",
        description="Wrong passwords a locked back-office session still takes (WRONG_CREDENTIAL "
        "at its lock screen).",
    )


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


# What any route may answer whatever it declares, from the layers in front of it (pao.core.edge,
# pao.core.request_limits, pao.core.errors): added to every operation of the document.
_ANY_ROUTE = {
    "400": "KEY_INVALID (a control character in the path, the query or the body)",
    "503": "SERVICE_UNAVAILABLE (the database cannot be reached; Retry-After)",
}
_ANY_BODY = {
    "400": "BODY_INVALID (the body cannot be read)",
    "413": "PAYLOAD_TOO_LARGE (the body is larger than the route takes)",
    "415": "BODY_INVALID (a content type the route does not take)",
}


def _error_response(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}},
    }


def _add_codes(responses: dict[str, Any], status: str, codes: str) -> None:
    """Document ``codes`` under ``status``, after what the route itself declares there."""
    if status not in responses:
        responses[status] = _error_response(codes)
    elif codes.split(" ", 1)[0] not in responses[status].get("description", ""):
        responses[status]["description"] += f" | {codes}"


def document_common_errors(app: FastAPI) -> None:
    """Document what every route answers besides its own errors: 422 as the app answers it
    (``KEY_MISSING | KEY_INVALID``, pao.core.errors) on every route that leaves it to FastAPI,
    whose default describes a "Validation Error" body the app never sends (its schemas go too
    once nothing refers to them); and the refusals of the layers in front of every route (the
    edge's control characters and body limits, unreadable bodies, a database outage), so the
    document and the fuzz run (tests/fuzz) agree with what a client can meet."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = generate()
        ours = _error_response(VALIDATION[422]["description"])
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                responses = operation.setdefault("responses", {})
                if responses.get("422", {}).get("description") == _FASTAPI_422:
                    responses["422"] = ours
                for status, codes in _ANY_ROUTE.items():
                    _add_codes(responses, status, codes)
                if "requestBody" in operation:
                    for status, codes in _ANY_BODY.items():
                        _add_codes(responses, status, codes)
        schemas = schema.get("components", {}).get("schemas", {})
        for name in _FASTAPI_422_SCHEMAS:  # the outer one first: it refers to the other
            if f'"#/components/schemas/{name}"' not in json.dumps(schema):
                schemas.pop(name, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]
