"""What every back-office router shares: the path prefix, the route class, the error docs."""

from __future__ import annotations

from enum import Enum

from fastapi import APIRouter

from pao.backoffice.deps import BackofficeRoute
from pao.core.openapi import errors

PREFIX = "/api/backoffice"
TAGS: list[str | Enum] = ["backoffice"]
# Every authenticated route can answer these (423: the session is locked, idle).
AUTHENTICATED = errors(
    _401="invalid-token", _403="STAFF_FORBIDDEN", _410="gone", _423="SESSION_LOCKED"
)


def backoffice_router() -> APIRouter:
    return APIRouter(prefix=PREFIX, route_class=BackofficeRoute, tags=TAGS)
