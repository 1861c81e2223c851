"""``GET /api/backoffice/seamless/open-rounds`` (``reports.read``): the seamless rounds across
members that their provider has not closed, opened more than N minutes ago, oldest first: what
an operator chases with the provider. A read: nothing is audited."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import Depends, Query
from pydantic import Field

from pao.backoffice.deps import require
from pao.backoffice.members.schemas import Provider, SeamlessRoundOut
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.schemas import _WireIn
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION
from pao.core.uow import SessionDep
from pao.games.seamless import history
from pao.kit.clock import utcnow
from pao.kit.pagination import Page

router = backoffice_router()
Reader = Annotated[Staff, Depends(require(Permission.REPORTS_READ))]


class OpenRoundsQuery(_WireIn):
    provider: Provider | None = None
    older_than_minutes: int = Field(
        default=30, ge=0, le=60 * 24 * 120, description="Opened at least this long ago."
    )
    page: int = Field(default=1, ge=1, le=100_000)
    limit: int = Field(default=20, ge=1, le=100)


@router.get(
    "/seamless/open-rounds",
    operation_id="backofficeSeamlessOpenRounds",
    response_model=Page[SeamlessRoundOut],
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Seamless rounds not closed, opened more than olderThanMinutes ago, oldest first",
)
async def open_rounds(
    query: Annotated[OpenRoundsQuery, Query()], session: SessionDep, staff: Reader
) -> Page[SeamlessRoundOut]:
    found = history.RoundFilter(
        provider=query.provider,
        open=True,
        opened_before=utcnow() - timedelta(minutes=query.older_than_minutes),
    )
    total, rows = await history.rounds(
        session,
        found,
        offset=(query.page - 1) * query.limit,
        limit=query.limit,
        oldest_first=True,
    )
    return Page[SeamlessRoundOut].of(rows, SeamlessRoundOut.of, total=total, request=query)
