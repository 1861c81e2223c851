"""The LINE QR image of the contact page, rendered from the operator's LINE link.

``GET /media/contact/line-qr.png`` answers a PNG of the QR code of the ``lineLink`` setting
(404 ``NO_DATA`` while there is none), so the QR always opens the link shown beside it and nobody
draws or uploads one by hand; the demo content's ``lineQR`` points here. It is not under
``/api``: an image the page loads (``<img src>``), which a closed site keeps showing like the
rest of the app's files. The PNG of a link is rendered once per process (a few ms with segno).
"""

from __future__ import annotations

import io
from functools import lru_cache

import segno
from fastapi import APIRouter, Response, status
from fastapi.responses import JSONResponse

from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.site.settings import load_site_settings

LINE_QR_PATH = "/media/contact/line-qr.png"

router = APIRouter(route_class=UnitOfWorkRoute)


@lru_cache(maxsize=8)
def line_qr_png(link: str) -> bytes:
    """The QR code of ``link`` as a PNG: error correction M, 6 px modules, the standard quiet
    zone of 4 modules (phone cameras need it to find the code)."""
    out = io.BytesIO()
    segno.make(link, error="m", micro=False).save(out, kind="png", scale=6, border=4)
    return out.getvalue()


@router.get(LINE_QR_PATH, include_in_schema=False)
async def line_qr(session: SessionDep) -> Response:
    link = (await load_site_settings(session)).line_link
    if not link:
        return JSONResponse({"message": "NO_DATA"}, status_code=status.HTTP_404_NOT_FOUND)
    # no-cache: revalidated on each load, so a changed link shows its new QR at once.
    return Response(
        line_qr_png(link), media_type="image/png", headers={"Cache-Control": "no-cache"}
    )
