"""HTTP routes of slip deposits.

``POST /api/wallet/slip`` answers **200** for every slip it accepted, credited or not:
``{code: SUCCESS | SLIP_UPLOAD_FAIL | OK, status, reason?, slip}`` (the spec does not show
this response; documented in docs/domain/slips-and-payouts.md). It answers an error
``{message}`` only when it did not accept the upload at all: SLIP_NO_FILE,
SLIP_INVALID_FILE (413 when the file is over 5 MB), SLIP_UPLOAD_FAIL with
``reason: SLIP_UPLOAD_CLOSED`` (the daily closed window), IDEMPOTENCY_KEY_REUSED.

The upload runs its own transactions (the bank is called in between; see
:mod:`pao.payments.slips.service`), so the route first ends the request's own transaction,
which only authenticated the member.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, File, Request, UploadFile
from fastapi.responses import Response
from fastapi.routing import APIRoute
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.datastructures import UploadFile as StarletteUploadFile

from pao.core.errors import Unprocessable
from pao.core.fast_lane import LeanEndpoint, declared_route, lean_answer
from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.params import DbId
from pao.core.request_limits import FORM_LIMITS
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember, request_member
from pao.identity.models import Member
from pao.kit.idempotency import IdempotencyKeyHeader
from pao.kit.money import Currency
from pao.kit.pagination import PageRequest
from pao.payments.slips import service
from pao.payments.slips.decoder import MAX_BYTES
from pao.payments.slips.exceptions import SlipNoFile, SlipNotFound, SlipTooLarge
from pao.payments.slips.providers.select import build_verifier
from pao.payments.slips.schemas import (
    SlipsResponse,
    SlipUploadResponse,
    SlipUrlOut,
    image_link,
    slip_out,
    upload_response,
)
from pao.protection.service import ensure_may_deposit

router = APIRouter(route_class=UnitOfWorkRoute)

_MEDIA_TYPES = {"png": "image/png", "jpg": "image/jpeg"}


def slip_context(request: Request) -> service.SlipContext:
    state = request.app.state
    return service.SlipContext(
        sessionmaker=state.sessionmaker,
        verifier=build_verifier(state),
        file_store=state.file_store,
    )


@router.post(
    "/api/wallet/slip",
    operation_id="uploadSlip",
    tags=["wallet", "slip"],
    response_model=SlipUploadResponse,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="SLIP_NO_FILE | SLIP_INVALID_FILE | SLIP_UPLOAD_FAIL (reason SLIP_UPLOAD_CLOSED)"
            " | DEPOSIT_LIMIT_REACHED | LOSS_LIMIT_REACHED",
            _403="PLAY_EXCLUDED",
            _409="IDEMPOTENCY_KEY_REUSED",
            _413="SLIP_INVALID_FILE (over 5 MB)",
            _422="KEY_INVALID",
        ),
    },
    summary="Upload a bank transfer slip (PNG or JPEG, at most 5 MB)",
    description="The slip's mini QR is read, the transfer checked with the bank and the wallet "
    "credited once. A checked slip answers 200 with code SUCCESS (credited), "
    "SLIP_UPLOAD_FAIL with the reason code (UPLOADED_FILE_NOT_EXIST, "
    "IMG_SIZE_UNABLE_TO_PROCESS, CANNOT_READ_CROPPED_IMAGE, DEST_ACC_INVALID, "
    "SLIP_REFNO_DUPLICATED, UNSTABLE_REFNO_ON_SLIP, INVALID_SLIP, NOT_MATCH, EXPIRED_SLIP, "
    "BELOW_MINIMUM_DEPOSIT, CURRENCY_MISMATCH, UNKNOW_ERROR), or OK (still in progress).",
)
async def upload(
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    file: Annotated[UploadFile | None, File(description="The slip image.")] = None,
    idempotency_key: IdempotencyKeyHeader = None,
) -> SlipUploadResponse:
    return await _upload(request, session, member, file, idempotency_key)


async def upload_lean(request: Request) -> Response | None:
    """``POST /api/wallet/slip`` as the fast lane serves it (:func:`pao.core.fast_lane.
    lean_answer`): the form parsed as FastAPI parses it (Starlette's parser, the app's
    ``FORM_LIMITS``), the route's own body, the member by ``current_member`` as the route's.
    A request that is not a multipart form with one file named ``file`` is FastAPI's to
    answer (its 400 or 422, or the route's SLIP_NO_FILE), its body replayed."""
    media_type = request.headers.get("content-type", "").partition(";")[0]
    if media_type.strip().lower() != "multipart/form-data":
        return None
    await request.body()  # kept, for FastAPI to parse again if this is not the lane's to answer
    try:
        form = await request.form(**FORM_LIMITS)
    except Exception:  # FastAPI answers any failure to parse a form (its 400)
        return None
    try:
        file = form.get("file")
        if not isinstance(file, StarletteUploadFile):
            return None

        async def act(session: AsyncSession) -> SlipUploadResponse:
            member = await request_member(request, session)
            return await _upload(
                request, session, member, file, request.headers.get("idempotency-key")
            )

        return await lean_answer(request, SlipUploadResponse, act)
    finally:
        await form.close()


def lean_endpoints() -> list[tuple[APIRoute, LeanEndpoint]]:
    """The slip upload, answered by the fast lane in front of the routing (as declared: its
    metrics label, its contract) with :func:`upload_lean`."""
    return [(declared_route(router.routes, "/api/wallet/slip"), upload_lean)]


async def _upload(
    request: Request,
    session: AsyncSession,
    member: Member,
    file: StarletteUploadFile | None,
    idempotency_key: str | None,
) -> SlipUploadResponse:
    if idempotency_key is not None and not 1 <= len(idempotency_key) <= 200:
        raise Unprocessable("KEY_INVALID", field="Idempotency-Key")
    if file is None:
        raise SlipNoFile()
    # Bounded: the decoder needs the whole image, which is at most MAX_BYTES (the edge has
    # already refused a body much larger than that, unread).
    data = await file.read(MAX_BYTES + 1)
    if not data:
        raise SlipNoFile()
    if len(data) > MAX_BYTES:
        raise SlipTooLarge()
    # The money is already in the operator's bank: refused here only when nothing remains of
    # the member's limit (a slip over what remains is credited: a payment is never lost).
    await ensure_may_deposit(session, member, None, channel="slip")
    member_id, currency = member.id, Currency(member.currency)
    # End the request's transaction (it only read the member): the saga opens its own, on
    # this session.
    await session.commit()
    slip = await service.upload_slip(
        slip_context(request),
        session,
        member_id=member_id,
        currency=currency,
        data=data,
        idempotency_key=idempotency_key,
    )
    return upload_response(slip)


@router.post(
    "/api/statement/slip",
    operation_id="listSlips",
    tags=["statement", "slip"],
    response_model=SlipsResponse,
    responses={**AUTH_ERRORS, **errors(_422="KEY_MISSING | KEY_INVALID")},
)
async def list_slips(
    body: PageRequest, session: SessionDep, member: CurrentMember
) -> SlipsResponse:
    """The member's own slips, newest first."""
    total, rows = await service.list_slips(session, member_id=member.id, page=body)
    return SlipsResponse(slips=[slip_out(row) for row in rows], total=total)


@router.get(
    "/api/statement/slip/reference/{reference}",
    operation_id="getSlipByReference",
    tags=["statement", "slip"],
    response_model=SlipUrlOut,
    responses={**AUTH_ERRORS, **errors(_404="NO_DATA")},
)
async def slip_url(reference: str, session: SessionDep, member: CurrentMember) -> SlipUrlOut:
    """Where the image of the member's slip with this reference is (another member's → 404)."""
    slip = await service.slip_by_reference(session, member_id=member.id, reference=reference)
    return SlipUrlOut(url=image_link(slip.id))


@router.get(
    "/api/statement/slip/image/{slip_id}",
    operation_id="getSlipImage",
    tags=["statement", "slip"],
    response_class=Response,
    responses={
        200: {"content": {"image/png": {}, "image/jpeg": {}}, "description": "The image."},
        **AUTH_ERRORS,
        **errors(_404="NO_DATA"),
    },
)
async def slip_image(
    slip_id: DbId, request: Request, session: SessionDep, member: CurrentMember
) -> Response:
    """The stored slip image, only for its owner (fetch it with the bearer token)."""
    slip = await service.owned_slip(session, member_id=member.id, slip_id=slip_id)
    store = request.app.state.file_store
    if not await store.exists(slip.file_key):
        raise SlipNotFound()
    extension = slip.file_key.rsplit(".", 1)[-1]
    # Not cached (pao.core.security_headers): the slip shows the member's bank account, and a
    # shared phone or an internet cafe's browser must not keep it.
    return Response(
        await store.get(slip.file_key),
        media_type=_MEDIA_TYPES.get(extension, "application/octet-stream"),
    )
