"""Wire shapes of ``/api/backoffice/audit`` (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AwareDatetime, Field, StringConstraints

from pao.backoffice.audit.service import AuditSort, Found
from pao.backoffice.audit.values import wire_values
from pao.backoffice.schemas import _Wire, _WireIn
from pao.core.params import MAX_DB_INT

_VALUES = (
    'The changed fields. An amount is {"$money": {"THB": 555.0}} (major units; a per-currency '
    'setting names every currency, null where unset; "XXX" when an old row did not say which).'
)


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
    hide_sign_ins: bool = Field(
        default=False, description="Leave out sign-ins and sign-outs (the auth.* actions)."
    )
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=50, ge=1, le=200)
    sort: AuditSort = "-at"


class AuditEntryOut(_Wire):
    id: int
    at: datetime
    staff_id: int | None
    staff_role: str | None
    actor: str = Field(description="The staff login, ops:<user> at the shell, or what was typed.")
    staff_name: str | None = Field(description="The staff member's display name (None: not staff).")
    action: str
    object_type: str | None
    object_id: str | None
    before: dict[str, object] | None = Field(description=_VALUES)
    after: dict[str, object] | None = Field(description=_VALUES)
    ip: str | None
    detail: str | None

    @classmethod
    def of(cls, found: Found) -> AuditEntryOut:
        entry = found.entry
        return cls(
            id=entry.id,
            at=entry.at,
            staff_id=entry.staff_id,
            staff_role=entry.staff_role,
            actor=entry.actor,
            staff_name=found.staff_name,
            action=entry.action,
            object_type=entry.object_type,
            object_id=entry.object_id,
            before=wire_values(entry.action, entry.before),
            after=wire_values(entry.action, entry.after),
            ip=entry.ip,
            detail=entry.detail,
        )


class AuditActionsOut(_Wire):
    items: list[str] = Field(description="Every action the log records, grouped by area.")
    sign_ins: list[str] = Field(description="Those that hideSignIns leaves out.")
    object_types: list[str] = Field(description="What the actions act on (objectType).")
