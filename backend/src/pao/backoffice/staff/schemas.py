"""Wire shapes of ``/api/backoffice/staff`` (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field, StringConstraints

from pao.backoffice.models import Staff
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.staff.roles import Role
from pao.backoffice.staff.totp import Enrolment

Login = Annotated[str, StringConstraints(min_length=1, max_length=40)]
Password = Annotated[str, StringConstraints(min_length=1, max_length=128)]
Name = Annotated[str, StringConstraints(max_length=80)]


class EnrolmentOut(_Wire):
    secret: str = Field(description="Base32 TOTP secret, for typing into an authenticator.")
    uri: str = Field(description="The otpauth:// URI (issuer Pao).")
    qr: str = Field(description="The URI as a QR code: an SVG data URI for an <img src>.")

    @classmethod
    def of(cls, enrolment: Enrolment) -> EnrolmentOut:
        return cls(secret=enrolment.secret, uri=enrolment.uri, qr=enrolment.qr_svg_data_uri)


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
