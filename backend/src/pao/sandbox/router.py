"""HTTP routes of pao.sandbox: fake third parties, mounted only when ``PAO_SANDBOX=1``.

They are left out of the OpenAPI document: they are not Pao's API, and the committed contract
must not depend on whether the sandbox is switched on. Sandbox handlers use the sandbox's own
database and commit their own writes.
"""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from pao.core.uow import UnitOfWorkRoute
from pao.sandbox import sms
from pao.sandbox.amb import router as amb_router
from pao.sandbox.bank.router import router as bank_router
from pao.sandbox.bank.scb import router as scb_qr_router
from pao.sandbox.games.router import router as games_router
from pao.sandbox.gateways import router as gateways_router
from pao.sandbox.hub88.router import router as hub88_router
from pao.sandbox.index import router as index_router
from pao.sandbox.line.platform import router as line_platform_router
from pao.sandbox.line.tester import router as line_tester_router
from pao.sandbox.slipcheck.router import router as slipcheck_router
from pao.sandbox.store import SandboxSessionDep
from pao.sandbox.thaibulksms import router as thaibulksms_router
from pao.sandbox.thaibulksms_otp import router as thaibulksms_otp_router
from pao.sandbox.truemoney import router as truemoney_router

router = APIRouter(route_class=UnitOfWorkRoute)
router.include_router(index_router)
router.include_router(bank_router)
router.include_router(scb_qr_router)
router.include_router(games_router)
router.include_router(hub88_router)
router.include_router(amb_router)
router.include_router(gateways_router)
router.include_router(truemoney_router)
router.include_router(slipcheck_router)
router.include_router(thaibulksms_router)
router.include_router(thaibulksms_otp_router)
router.include_router(line_platform_router)
router.include_router(line_tester_router)


class SmsIn(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    phone: str = Field(min_length=1, max_length=32)
    text: str = Field(min_length=1, max_length=1000)
    sender: str | None = Field(default=None, max_length=40)


class SmsOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    phone: str
    text: str
    created_at: datetime = Field(alias="createdAt")


class Accepted(BaseModel):
    code: str = "OK"


@router.post(
    "/sandbox/sms",
    operation_id="sandboxSendSms",
    tags=["sandbox"],
    response_model=Accepted,
    include_in_schema=False,
)
async def send_sms(body: SmsIn, session: SandboxSessionDep) -> Accepted:
    await sms.deliver(session, phone=body.phone, text=body.text, sender=body.sender)
    await session.commit()
    return Accepted()


@router.get(
    "/sandbox/sms",
    operation_id="sandboxSmsOutbox",
    tags=["sandbox"],
    response_model=list[SmsOut],
    response_model_by_alias=True,
    include_in_schema=False,
)
async def sms_outbox(
    session: SandboxSessionDep, phone: str | None = Query(default=None, max_length=32)
) -> list[SmsOut]:
    rows = await sms.outbox(session, phone=phone)
    return [SmsOut(phone=r.phone, text=r.text, created_at=r.created_at) for r in rows]
