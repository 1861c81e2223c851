"""``/api/backoffice/promotions``: the catalogue of bonuses and promotion codes — list with
usage, create, edit, retire, re-activate — and ``/api/backoffice/images``, the upload of a
banner's image. The rules are :mod:`pao.promotions.catalogue_admin`'s and
:mod:`pao.site.images`'; each change is audited here with the bonus before and after.
Players read the catalogue from the database on each request, so they see a change at once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import Depends, File, Request, UploadFile, status

from pao.backoffice.audit import service as audit
from pao.backoffice.deps import actor_of, require
from pao.backoffice.models import Staff
from pao.backoffice.promotions.schemas import (
    BonusAdminOut,
    BonusCreateIn,
    BonusListOut,
    BonusUpdateIn,
    ImageOut,
)
from pao.backoffice.routing import AUTHENTICATED, backoffice_router
from pao.backoffice.schemas import _WireIn
from pao.backoffice.staff.roles import Permission
from pao.core.openapi import VALIDATION, errors
from pao.core.params import DbId
from pao.core.uow import SessionDep
from pao.promotions import catalogue_admin
from pao.promotions.models import Bonus, BonusKind
from pao.site import images

router = backoffice_router()

Manager = Annotated[Staff, Depends(require(Permission.PROMOTIONS_MANAGE))]
OBJECT = "bonus"
RULES = (
    "BONUS_CODE_INVALID | BONUS_AMOUNT_INVALID | BONUS_PERCENT_INVALID"
    " | BONUS_PERCENT_FAIL_INVALID | BONUS_TURNOVER_INVALID | BONUS_MAX_RECEIVED_INVALID"
    " | BONUS_TOTAL_LIMIT_INVALID | BONUS_LIMIT_BELOW_CLAIMED | BONUS_NAME_REQUIRED"
    " | BONUS_WINDOW_INVALID | BONUS_SORT_INVALID | KEY_MISSING | KEY_INVALID (with field)"
)


class CatalogueQuery(_WireIn):
    kind: BonusKind | None = None


async def _out(session: SessionDep, bonus_id: int) -> BonusAdminOut:
    bonus = await catalogue_admin.get_bonus(session, bonus_id=bonus_id)
    return BonusAdminOut.of(await catalogue_admin.catalogue_row(session, bonus))


@router.get(
    "/promotions",
    operation_id="backofficePromotions",
    response_model=BonusListOut,
    responses={**AUTHENTICATED, **VALIDATION},
    summary="Every bonus and promotion code (active or retired) with its usage",
)
async def list_promotions(
    session: SessionDep, staff: Manager, query: Annotated[CatalogueQuery, Depends()]
) -> BonusListOut:
    rows = await catalogue_admin.catalogue(session, kind=query.kind)
    return BonusListOut(items=[BonusAdminOut.of(r) for r in rows])


@router.post(
    "/promotions",
    operation_id="backofficePromotionCreate",
    status_code=status.HTTP_201_CREATED,
    response_model=BonusAdminOut,
    responses={**AUTHENTICATED, **errors(_409="BONUS_CODE_TAKEN", _422=RULES)},
    summary="Create a bonus or a promotion code (active)",
)
async def create_promotion(
    body: BonusCreateIn, request: Request, session: SessionDep, staff: Manager
) -> BonusAdminOut:
    bonus = await catalogue_admin.create_bonus(
        session, code=body.code, kind=body.kind, draft=body.draft()
    )
    await audit.record(
        session,
        actor=actor_of(request),
        action="promotion.create",
        object_type=OBJECT,
        object_id=bonus.id,
        after=catalogue_admin.snapshot(bonus),
    )
    return await _out(session, bonus.id)


@router.patch(
    "/promotions/{bonus_id}",
    operation_id="backofficePromotionUpdate",
    response_model=BonusAdminOut,
    responses={**AUTHENTICATED, **errors(_404="NO_DATA", _422=RULES)},
    summary="Edit a bonus or promotion code (the fields sent; code and kind stay)",
)
async def update_promotion(
    bonus_id: DbId, body: BonusUpdateIn, request: Request, session: SessionDep, staff: Manager
) -> BonusAdminOut:
    return await _audited(
        request,
        session,
        bonus_id,
        "promotion.update",
        lambda: catalogue_admin.edit_bonus(session, bonus_id=bonus_id, changes=body.changes()),
    )


async def _audited(
    request: Request,
    session: SessionDep,
    bonus_id: int,
    action: str,
    change: Callable[[], Awaitable[Bonus]],
) -> BonusAdminOut:
    """Run ``change`` on the bonus and record what it changed (before/after) as ``action``."""
    before = catalogue_admin.snapshot(await catalogue_admin.get_bonus(session, bonus_id=bonus_id))
    bonus = await change()
    old, new = audit.changed(before, catalogue_admin.snapshot(bonus))
    await audit.record(
        session,
        actor=actor_of(request),
        action=action,
        object_type=OBJECT,
        object_id=bonus.id,
        before=old,
        after=new,
    )
    return await _out(session, bonus.id)


async def _set_active(
    request: Request, session: SessionDep, bonus_id: int, *, active: bool
) -> BonusAdminOut:
    action = "promotion.reactivate" if active else "promotion.retire"
    return await _audited(
        request,
        session,
        bonus_id,
        action,
        lambda: catalogue_admin.set_active(session, bonus_id=bonus_id, active=active),
    )


@router.post(
    "/promotions/{bonus_id}/retire",
    operation_id="backofficePromotionRetire",
    response_model=BonusAdminOut,
    responses={**AUTHENTICATED, **errors(_404="NO_DATA"), **VALIDATION},
    summary="Retire: players no longer see or take it (grants made run on; never deleted)",
)
async def retire_promotion(
    bonus_id: DbId, request: Request, session: SessionDep, staff: Manager
) -> BonusAdminOut:
    return await _set_active(request, session, bonus_id, active=False)


@router.post(
    "/promotions/{bonus_id}/reactivate",
    operation_id="backofficePromotionReactivate",
    response_model=BonusAdminOut,
    responses={**AUTHENTICATED, **errors(_404="NO_DATA"), **VALIDATION},
    summary="Offer a retired bonus or promotion code again",
)
async def reactivate_promotion(
    bonus_id: DbId, request: Request, session: SessionDep, staff: Manager
) -> BonusAdminOut:
    return await _set_active(request, session, bonus_id, active=True)


@router.post(
    "/images",
    operation_id="backofficeImageUpload",
    status_code=status.HTTP_201_CREATED,
    response_model=ImageOut,
    responses={
        **AUTHENTICATED,
        **errors(
            _400="IMAGE_NOT_SUPPORTED",
            _413="IMAGE_TOO_LARGE",
            _422="KEY_MISSING | KEY_INVALID | IMAGE_DIMENSIONS_TOO_LARGE (with maxPixels)",
        ),
    },
    summary="Upload an image (png, jpeg, gif, webp by content; up to 2 MB and 4096 × 4096 px) "
    "for a banner: what is stored is the image encoded again (no trailing bytes, no metadata)",
)
async def upload_image(
    request: Request,
    session: SessionDep,
    staff: Manager,
    file: Annotated[UploadFile, File(description="The image (multipart field 'file').")],
) -> ImageOut:
    stored = await images.store_image(request.app.state.file_store, file)
    await audit.record(
        session,
        actor=actor_of(request),
        action="image.upload",
        object_type="image",
        object_id=stored.url.rsplit("/", 1)[-1],
        after={"url": stored.url, "contentType": stored.content_type, "size": stored.size},
    )
    return ImageOut(url=stored.url, content_type=stored.content_type, size=stored.size)
