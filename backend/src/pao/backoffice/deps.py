"""Who is calling a back-office route, and may they.

* ``CurrentStaff`` — the staff member behind the bearer token of a live staff session, or 401
  ``invalid-token``. It looks only in ``staff_sessions``: a member's token is refused here (and
  :data:`pao.identity.deps.CurrentMember` never finds a staff token). A locked session (idle,
  or locked by hand: :mod:`pao.backoffice.sessions.lock`) is refused with 423
  ``SESSION_LOCKED``, except by the routes declared with :func:`require_even_locked` (lock,
  unlock, logout).
* :func:`require` — the dependency a route declares its permission with: 401 as above, then
  403 ``STAFF_FORBIDDEN`` unless the role holds the permission
  (:func:`pao.backoffice.staff.roles.may`).
  :data:`PUBLIC` marks the two login steps. :class:`BackofficeRoute` refuses to build a route
  that declares neither or both, and publishes the permission as ``x-permission`` in the
  OpenAPI document; tests read it from ``route.access``.
"""

from __future__ import annotations

from datetime import timedelta
from functools import cache
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.dependencies.models import Dependant
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from pao.backoffice.audit.service import Actor
from pao.backoffice.exceptions import StaffForbidden, StaffSessionLocked
from pao.backoffice.models import Staff, StaffSession
from pao.backoffice.sessions import lock
from pao.backoffice.sessions import service as sessions
from pao.backoffice.staff.roles import Permission, may
from pao.core.client import client_ip
from pao.core.errors import Unauthorized
from pao.core.settings import Settings
from pao.core.uow import SessionDep, UnitOfWorkRoute

staff_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="StaffBearer",
    description="The token of POST /api/backoffice/auth/totp (a staff session).",
)
StaffCredentials = Annotated[HTTPAuthorizationCredentials | None, Depends(staff_bearer)]


def idle_timeout(request: Request) -> timedelta:
    settings: Settings = request.app.state.settings
    return timedelta(minutes=settings.staff_idle_minutes)


async def any_staff_session(
    request: Request, session: SessionDep, credentials: StaffCredentials
) -> StaffSession:
    """The live session of the token, locked or not (401 ``invalid-token`` without one)."""
    found = await sessions.find(
        session, credentials.credentials if credentials is not None else None
    )
    if found is None:
        raise Unauthorized()
    row, staff = found
    request.state.staff_session = row
    # The identity map holds objects weakly: keep the staff member for current_staff.
    request.state.staff = staff
    return row


async def current_staff_session(
    request: Request, session: SessionDep, row: Annotated[StaffSession, Depends(any_staff_session)]
) -> StaffSession:
    """The usable session of the token: a locked one answers 423 ``SESSION_LOCKED`` (an idle
    one is recorded as locked on the way)."""
    if await lock.settle(session, row=row, actor=actor_of(request), idle=idle_timeout(request)):
        raise StaffSessionLocked()
    sessions.mark_used(row)
    return row


async def current_staff(
    request: Request, row: Annotated[StaffSession, Depends(current_staff_session)]
) -> Staff:
    staff: Staff = request.state.staff
    return staff


async def current_staff_even_locked(
    request: Request, row: Annotated[StaffSession, Depends(any_staff_session)]
) -> Staff:
    staff: Staff = request.state.staff
    return staff


CurrentStaffSession = Annotated[StaffSession, Depends(current_staff_session)]
AnyStaffSession = Annotated[StaffSession, Depends(any_staff_session)]
CurrentStaff = Annotated[Staff, Depends(current_staff)]
StaffEvenLocked = Annotated[Staff, Depends(current_staff_even_locked)]


def actor_of(request: Request) -> Actor:
    """The audit actor of an authenticated back-office request."""
    staff: Staff = request.state.staff
    return Actor.of_staff(staff, client_ip(request))


class Require:
    """A route's permission, as a dependency that answers with the staff member."""

    def __init__(self, permission: Permission) -> None:
        self.permission: Permission | None = permission

    async def __call__(self, staff: CurrentStaff) -> Staff:
        assert self.permission is not None
        if not may(staff.role, self.permission):
            raise StaffForbidden()
        return staff

    def __repr__(self) -> str:
        return f"require({self.permission})"


class RequireEvenLocked(Require):
    """A route's permission for a session that may be locked (lock, unlock, logout)."""

    async def __call__(self, staff: StaffEvenLocked) -> Staff:
        assert self.permission is not None
        if not may(staff.role, self.permission):
            raise StaffForbidden()
        return staff

    def __repr__(self) -> str:
        return f"require_even_locked({self.permission})"


class Public:
    """The mark of a route anyone may call (the login steps)."""

    permission: Permission | None = None

    async def __call__(self) -> None:
        return None

    def __repr__(self) -> str:
        return "public"


PUBLIC = Public()
Access = Require | Public


@cache
def require(permission: Permission) -> Require:
    """``Depends(require(Permission.X))``; one instance per permission."""
    return Require(permission)


@cache
def require_even_locked(permission: Permission) -> RequireEvenLocked:
    """``Depends(require_even_locked(Permission.X))``: as :func:`require`, locked or not."""
    return RequireEvenLocked(permission)


def _accesses(dependant: Dependant) -> list[Access]:
    found: list[Access] = []
    for dependency in dependant.dependencies:
        if isinstance(dependency.call, Require | Public):
            found.append(dependency.call)
        found += _accesses(dependency)
    return found


class BackofficeRoute(UnitOfWorkRoute):
    """A back-office route: one transaction per request, and exactly one declared access."""

    access: Access

    def __init__(self, path: str, endpoint: Any, **kwargs: Any) -> None:
        super().__init__(path, endpoint, **kwargs)
        declared = {id(a): a for a in _accesses(self.dependant)}
        if len(declared) != 1:
            raise TypeError(
                f"back-office route {path} must declare one access (require(...) or PUBLIC), "
                f"has {list(declared.values())}"
            )
        (self.access,) = declared.values()
        permission = self.access.permission
        self.openapi_extra = {
            **(self.openapi_extra or {}),
            "x-permission": permission.value if permission is not None else "public",
        }
