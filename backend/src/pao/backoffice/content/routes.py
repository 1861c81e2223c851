"""``/api/backoffice/content`` and ``/api/backoffice/content/rules``: the editors of what players
read (contact text, conditions, agreements, notice, how-to videos, invite and refund banners)
and of the refund and invite rules, for managers and owners; and ``POST /content/preview``,
which answers HTML as players will get it (the same sanitiser, :mod:`pao.site.sanitize`).

The group routes are those of every settings editor (:mod:`pao.backoffice.settings.routes`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from pydantic import Field, StringConstraints

from pao.backoffice.deps import require
from pao.backoffice.models import Staff
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.schemas import _Wire, _WireIn
from pao.backoffice.settings.routes import add_group_routes
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION
from pao.site.editor import Group
from pao.site.sanitize import sanitize_html

router = backoffice_router()

Editor = Annotated[Staff, Depends(require(Permission.PROMOTIONS_MANAGE))]
# Larger than any operator text; bounds the work of one preview.
PREVIEW_MAX = 50_000


class PreviewIn(_WireIn):
    html: Annotated[str, StringConstraints(max_length=PREVIEW_MAX)]


class PreviewOut(_Wire):
    html: str = Field(description="The HTML as players get it (sanitised).")


# Before the group routes: "/content/preview" is not a version path.
@router.post(
    "/content/preview",
    operation_id="backofficeContentPreview",
    response_model=PreviewOut,
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Sanitise HTML as it would be stored and shown to players (changes nothing)",
)
async def preview(body: PreviewIn, staff: Editor) -> PreviewOut:
    return PreviewOut(html=sanitize_html(body.html))


add_group_routes(
    router,
    group=Group.CONTENT,
    path="/content",
    permission=Permission.PROMOTIONS_MANAGE,
    name="Content",
)
add_group_routes(
    router,
    group=Group.RULES,
    path="/content/rules",
    permission=Permission.PROMOTIONS_MANAGE,
    name="Rules",
)
