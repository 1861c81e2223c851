"""``GET /api/images/{name}``: an operator image (:mod:`pao.site.images`), public like the
pages that show it. A stored name never changes content, so browsers may keep it."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from pao.core.openapi import errors
from pao.site import images

router = APIRouter()

# Stored names are unique per upload (random), so a year of caching is safe.
CACHE = "public, max-age=31536000, immutable"


@router.get(
    images.PUBLIC_PATH + "{name}",
    operation_id="operatorImage",
    tags=["site"],
    response_class=Response,
    responses={
        200: {
            "content": {t: {} for t in images.CONTENT_TYPES.values()},
            "description": "The image.",
        },
        **errors(_404="IMAGE_NOT_FOUND", _410="gone"),
    },
    summary="An image the operator uploaded (e.g. a bonus banner)",
)
async def operator_image(name: str, request: Request) -> Response:
    data, content_type = await images.read_image(request.app.state.file_store, name)
    return Response(
        content=data,
        media_type=content_type,
        headers={"Cache-Control": CACHE, "X-Content-Type-Options": "nosniff"},
    )
