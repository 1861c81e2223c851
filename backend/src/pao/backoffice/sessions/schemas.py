"""Wire shapes of ``/api/backoffice/sessions`` (camelCase)."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from pao.backoffice.models import StaffSession
from pao.backoffice.schemas import _Wire


class SessionOut(_Wire):
    id: int
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime
    ip: str | None
    user_agent: str | None
    current: bool = Field(description="The session of this very request.")
    locked: bool = Field(description="Idle or locked: it asks for the password again.")

    @classmethod
    def of(cls, row: StaffSession, *, current_id: int, locked: bool) -> SessionOut:
        return cls(
            id=row.id,
            created_at=row.created_at,
            last_seen_at=row.last_seen_at,
            expires_at=row.expires_at,
            ip=row.ip,
            user_agent=row.user_agent,
            current=row.id == current_id,
            locked=locked,
        )
