"""``POST /api/wallet/truelink {link}``: deposit a TrueMoney gift voucher (plain JSON over
TLS; no client-side "encryption")."""

from __future__ import annotations

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.kit.money import MajorAmount
from pao.payments.accounts import ReceivingKind, find_active
from pao.payments.gateways.base import GatewayError
from pao.payments.truemoney import service
from pao.payments.truemoney.adapter import TrueMoneyAdapter, VoucherRefused, truemoney_base_url
from pao.payments.truemoney.exceptions import (
    NoWallet,
    TrueLinkInvalid,
    TrueLinkMinimum,
    TrueMoneyUnavailable,
)
from pao.payments.truemoney.link import InvalidGiftLink, voucher_hash

router = APIRouter(route_class=UnitOfWorkRoute)


class TrueLinkIn(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    link: str = Field(max_length=2000)


class TrueLinkOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    code: str = "SUCCESS"
    amount: MajorAmount


@router.post(
    "/api/wallet/truelink",
    operation_id="depositTrueLink",
    tags=["wallet"],
    response_model=TrueLinkOut,
    responses={
        **AUTH_ERRORS,
        **errors(
            _400="TRUELINK_INVALID | TRUELINK_DUPLICATE | TRANSFER_MINIMUM | NO_WALLET",
            _422="KEY_MISSING | KEY_INVALID",
            _502="INTERNAL_SERVER_ERROR",
        ),
    },
    summary="Deposit a TrueMoney gift link (minimum 2 baht, each voucher once)",
)
async def truelink(
    body: TrueLinkIn, request: Request, session: SessionDep, member: CurrentMember
) -> TrueLinkOut:
    try:
        hashed = voucher_hash(body.link)
    except InvalidGiftLink:
        raise TrueLinkInvalid() from None
    wallet = await find_active(session, kind=ReceivingKind.TRUEMONEY, code="TRUEMONEY")
    if wallet is None or not wallet.account_no:
        raise NoWallet()
    mobile = wallet.account_no
    claim = await service.claim_voucher(session, member=member, voucher_hash=hashed)
    # The claim is durable before TrueMoney is called; no transaction spans the calls.
    await session.commit()
    adapter = TrueMoneyAdapter(base_url=truemoney_base_url(request.app.state.settings))
    http = request.app.state.http
    try:
        voucher = await adapter.verify(http, voucher_hash=hashed, mobile=mobile)
        if voucher.amount < service.MINIMUM:
            await service.fail_voucher(session, redemption_id=claim.id, reason="BELOW_MINIMUM")
            raise TrueLinkMinimum(service.MINIMUM)
        redeemed = await adapter.redeem(http, voucher_hash=hashed, mobile=mobile)
    except VoucherRefused as exc:
        await service.fail_voucher(session, redemption_id=claim.id, reason=exc.code)
        raise TrueLinkInvalid(keeps_changes=True) from None
    except GatewayError:
        # Outcome unknown: the claim stays PENDING and the member may submit the link again.
        raise TrueMoneyUnavailable() from None
    row = await service.credit_voucher(session, redemption_id=claim.id, amount=redeemed.amount)
    return TrueLinkOut(amount=row.amount or 0)
