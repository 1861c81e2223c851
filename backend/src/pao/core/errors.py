"""The error model of the API.

Every refusal is an :class:`AppError` carrying a code from the spec's error catalogue (§8) and
an HTTP status; the handlers here turn it into ``{"message": CODE}``. Hierarchy::

    AppError
     ├── BadRequest (400)      business rule refused the request
     ├── Unauthorized (401)    no, bad or expired token → "invalid-token"
     ├── Forbidden (403)
     ├── NotFound (404)
     ├── Conflict (409)        e.g. IDEMPOTENCY_KEY_REUSED, EXISTING_USER
     ├── Gone (410)            the site is terminated → "gone"
     └── TooManyRequests (429) rate limits

Each domain subclasses these in its own ``exceptions.py``. An error that must still commit
what the request wrote (a burned OTP attempt, a counted login failure) sets
``keeps_changes = True``.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = structlog.get_logger(__name__)

CATALOGUE_CODE = re.compile(r"[A-Z][A-Z0-9_]+")


class AppError(Exception):
    status_code: ClassVar[int] = 400
    code: str = "INTERNAL_SERVER_ERROR"
    keeps_changes: bool = False

    def __init__(
        self, code: str | None = None, *, keeps_changes: bool | None = None, **extra: Any
    ) -> None:
        self.code = code or self.code
        if keeps_changes is not None:
            self.keeps_changes = keeps_changes
        self.extra = extra
        super().__init__(self.code)

    def body(self) -> dict[str, Any]:
        return {"message": self.code, **self.extra}


class BadRequest(AppError):
    status_code = 400


class Unauthorized(AppError):
    status_code = 401
    code = "invalid-token"


class Forbidden(AppError):
    status_code = 403
    code = "UNAUTHORIZED"


class NotFound(AppError):
    status_code = 404
    code = "NO_DATA"


class Conflict(AppError):
    status_code = 409


class Gone(AppError):
    status_code = 410
    code = "gone"


class TooManyRequests(AppError):
    status_code = 429
    code = "REQUEST_LIMIT"


class Unprocessable(AppError):
    status_code = 422
    code = "KEY_INVALID"


def error_response(status_code: int, body: dict[str, Any]) -> JSONResponse:
    return JSONResponse(status_code=status_code, content=body)


def _validation_body(exc: RequestValidationError) -> dict[str, Any]:
    errors = exc.errors()
    first = errors[0] if errors else {}
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path", "header")]
    kind = str(first.get("type", ""))
    # A validator may raise PydanticCustomError whose type is a catalogue code of its own
    # (e.g. TRANSFER_MINIMUM); pydantic's own types are lower-case.
    if CATALOGUE_CODE.fullmatch(kind):
        code = kind
    elif kind == "missing":
        code = "KEY_MISSING"
    else:
        code = "KEY_INVALID"
    return {"message": code, "field": ".".join(loc)}


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AppError)
    async def _app_error(_request: Request, exc: AppError) -> JSONResponse:
        return error_response(exc.status_code, exc.body())

    @app.exception_handler(RequestValidationError)
    async def _validation(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, _validation_body(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        codes = {401: "invalid-token", 404: "NO_DATA", 405: "METHOD_NOT_ALLOWED"}
        return error_response(
            exc.status_code, {"message": codes.get(exc.status_code, str(exc.detail))}
        )

    @app.exception_handler(Exception)
    async def _unexpected(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return error_response(500, {"message": "INTERNAL_SERVER_ERROR"})
