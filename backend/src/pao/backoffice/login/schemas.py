"""Wire shapes of ``/api/backoffice/auth/*`` and ``/me`` (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from pao.backoffice.models import Staff
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.staff.roles import Permission, permissions_of
from pao.backoffice.staff.schemas import EnrolmentOut, Login, Password, StaffOut


class LoginIn(_WireIn):
    login: Login
    password: Password


class LoginStepOut(_Wire):
    step: Literal["code", "enrol"] = Field(
        description="code: ask for the authenticator's code; enrol: show the enrolment, then "
        "ask for its first code."
    )
    ticket: str = Field(description="Single-use; send it with the code to /auth/totp.")
    expires_at: datetime
    enrolment: EnrolmentOut | None = None


class TotpIn(_WireIn):
    ticket: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    code: Annotated[str, StringConstraints(min_length=1, max_length=10)]


class MeOut(StaffOut):
    permissions: list[Permission] = Field(
        description="What this staff member may do: the UI hides the rest (the server refuses "
        "it anyway)."
    )
    idle_lock_minutes: int = Field(
        description="Unused this long, the session locks and asks for the password again "
        "(PAO_STAFF_IDLE_MINUTES)."
    )

    @classmethod
    def of_me(cls, staff: Staff, *, idle_lock_minutes: int) -> MeOut:
        return cls(
            **StaffOut.of(staff).model_dump(),
            permissions=permissions_of(staff.role),
            idle_lock_minutes=idle_lock_minutes,
        )


class UnlockIn(_WireIn):
    password: Annotated[str, StringConstraints(min_length=1, max_length=200)]


class SessionStartedOut(_Wire):
    token: str = Field(description="Bearer token of the staff session (back office only).")
    expires_at: datetime = Field(
        description="Absolute end; idle before it, the session locks (the password unlocks it)."
    )
    staff: MeOut
