"""SCB's payment confirmation callback (``PAO_BANK_API=scb``; ADR 0029), server to server.

Unsigned, so never trusted alone: kept once per SCB ``transactionId``, answered as SCB
expects, and credited only when SCB's inquiry API shows the same payment (now, or later by
the reconciler). Off (404) unless the deployment speaks SCB.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from pao.core.errors import Unprocessable
from pao.core.openapi import errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.payments.qr import scb, scb_flow
from pao.payments.qr.exceptions import QrNotFound
from pao.payments.qr.schemas import ScbReply
from pao.payments.scb.confirmation import NotAConfirmation, read_confirmation, reply

router = APIRouter(route_class=UnitOfWorkRoute)


@router.post(
    "/api/payments/bank/scb/notify",
    operation_id="scbPaymentConfirmation",
    tags=["payments"],
    response_model=ScbReply,
    responses=errors(_404="NO_DATA", _410="gone", _422="KEY_INVALID"),
    summary="SCB's payment confirmation of a bank QR (server to server)",
    description="SCB's QR 30 payment confirmation body (transactionId, amount, "
    "transactionDateandTime, billPaymentRef1 = the QR's order reference, …). Kept once per "
    'transactionId and answered {resCode: "00", resDesc, transactionId, confirmId}; the '
    "member is credited once, only after SCB's inquiry API confirms the payment. 404 unless "
    "PAO_BANK_API=scb.",
)
async def scb_notify(request: Request, session: SessionDep) -> JSONResponse:
    if request.app.state.settings.bank_api != "scb":
        raise QrNotFound()
    try:
        note = read_confirmation(await request.body())
    except NotAConfirmation:
        raise Unprocessable("KEY_INVALID") from None
    row, _duplicate = await scb.receive(session, note)
    claim = scb.Claim.of(row)
    # The claim is kept before SCB is asked: no transaction spans the inquiry.
    await session.commit()
    if claim.pending:
        await scb_flow.confirm(session, scb_flow.scb_api(request.app.state), claim)
    answer = ScbReply.model_validate(reply(note.transaction_id, str(claim.id)))
    return JSONResponse(answer.model_dump(by_alias=True))
