"""Wire shapes of the back-office API (camelCase, like the player API)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints
from pydantic.alias_generators import to_camel

from pao.backoffice.audit import AuditSort
from pao.backoffice.models import AuditEntry, Staff, StaffSession
from pao.backoffice.roles import Permission, Role, permissions_of
from pao.backoffice.totp import Enrolment
from pao.core.params import MAX_DB_INT, RequestModel


class _Wire(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class _WireIn(RequestModel, _Wire):
    """A request body or query: a boolean is not a number (pao.core.params)."""


Login = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Password = Annotated[str, StringConstraints(min_length=1, max_length=128)]
Name = Annotated[str, StringConstraints(max_length=80)]


# ----- login ---------------------------------------------------------------------------------


class LoginIn(_WireIn):
    login: Login
    password: Password


class EnrolmentOut(_Wire):
    secret: str = Field(description="Base32 TOTP secret, for typing into an authenticator.")
    uri: str = Field(description="The otpauth:// URI (issuer Pao).")
    qr: str = Field(description="The URI as a QR code: an SVG data URI for an <img src>.")

    @classmethod
    def of(cls, enrolment: Enrolment) -> EnrolmentOut:
        return cls(secret=enrolment.secret, uri=enrolment.uri, qr=enrolment.qr_svg_data_uri)


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


class StaffOut(_Wire):
    id: int
    login: str
    display_name: str
    role: Role
    disabled: bool
    totp_enrolled: bool
    created_at: datetime
    last_login_at: datetime | None

    @classmethod
    def of(cls, staff: Staff) -> StaffOut:
        return cls(
            id=staff.id,
            login=staff.login,
            display_name=staff.display_name,
            role=Role(staff.role),
            disabled=staff.disabled_at is not None,
            totp_enrolled=staff.enrolled,
            created_at=staff.created_at,
            last_login_at=staff.last_login_at,
        )


class MeOut(StaffOut):
    permissions: list[Permission] = Field(
        description="What this staff member may do: the UI hides the rest (the server refuses "
        "it anyway)."
    )

    @classmethod
    def of_me(cls, staff: Staff) -> MeOut:
        return cls(**StaffOut.of(staff).model_dump(), permissions=permissions_of(staff.role))


class SessionStartedOut(_Wire):
    token: str = Field(description="Bearer token of the staff session (back office only).")
    expires_at: datetime = Field(description="Absolute end; it also ends when idle.")
    staff: MeOut


class SessionOut(_Wire):
    id: int
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime
    ip: str | None
    user_agent: str | None
    current: bool = Field(description="The session of this very request.")

    @classmethod
    def of(cls, row: StaffSession, *, current_id: int) -> SessionOut:
        return cls(
            id=row.id,
            created_at=row.created_at,
            last_seen_at=row.last_seen_at,
            expires_at=row.expires_at,
            ip=row.ip,
            user_agent=row.user_agent,
            current=row.id == current_id,
        )


# ----- staff management ------------------------------------------------------------------


class StaffCreateIn(_WireIn):
    login: Login = Field(description="Letters, digits and . _ @ + - (up to 40).")
    password: Password = Field(description="10 to 128 characters.")
    role: Role
    display_name: Name | None = None


class StaffCreatedOut(_Wire):
    staff: StaffOut
    enrolment: EnrolmentOut = Field(
        description="Hand it to the new staff member; the first login confirms it with a code."
    )


class StaffUpdateIn(_WireIn):
    role: Role | None = None
    display_name: Name | None = None
    disabled: bool | None = Field(
        default=None, description="true ends every session of the staff member."
    )


class PasswordResetIn(_WireIn):
    password: Password = Field(description="The new password (10 to 128 characters).")


# ----- audit -------------------------------------------------------------------------------


class AuditQuery(_WireIn):
    staff_id: int | None = Field(default=None, ge=1, le=MAX_DB_INT)
    action: Annotated[str, StringConstraints(max_length=60)] | None = None
    object_type: Annotated[str, StringConstraints(max_length=40)] | None = None
    object_id: Annotated[str, StringConstraints(max_length=64)] | None = None
    since: AwareDatetime | None = Field(
        default=None, alias="from", description="Inclusive; with a time zone."
    )
    until: AwareDatetime | None = Field(
        default=None, alias="to", description="Exclusive; with a time zone."
    )
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=50, ge=1, le=200)
    sort: AuditSort = "-at"


class AuditEntryOut(_Wire):
    id: int
    at: datetime
    staff_id: int | None
    staff_role: str | None
    actor: str
    action: str
    object_type: str | None
    object_id: str | None
    before: dict[str, object] | None
    after: dict[str, object] | None
    ip: str | None
    detail: str | None

    @classmethod
    def of(cls, entry: AuditEntry) -> AuditEntryOut:
        return cls.model_validate(entry, from_attributes=True)


class AuditPageOut(_Wire):
    items: list[AuditEntryOut]
    total: int
    page: int
    limit: int
