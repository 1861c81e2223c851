"""Page requests of the contract (``{page, limit}``, pages count from 1)."""

from __future__ import annotations

from pydantic import Field

from pao.core.params import RequestModel


class PageRequest(RequestModel):
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=10, ge=1, le=100)

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.limit
