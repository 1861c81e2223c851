"""Wire shapes of ``/api/backoffice/audit`` (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AwareDatetime, Field, StringConstraints

from pao.backoffice.audit.service import AuditSort
from pao.backoffice.models import AuditEntry
from pao.backoffice.schemas import _Wire, _WireIn
from pao.core.params import MAX_DB_INT


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
