"""``POST /api/wallet/truelink {link}``: deposit a TrueMoney gift voucher (plain JSON over
TLS; no client-side "encryption").

With an ``Idempotency-Key`` a retry of a credited voucher gets the first answer again (not
``TRUELINK_DUPLICATE``): the key is recorded with the credit, in its transaction, and looked up
before TrueMoney is called.
"""

from __future__ import annotations

import httpx
import structlog
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.openapi import AUTH_ERRORS, errors
from pao.core.uow import SessionDep, UnitOfWorkRoute
from pao.identity.deps import CurrentMember
from pao.kit.idempotency import IdempotencyKeyHeader, replayed_answer, run_idempotent
from pao.kit.money import MajorAmount
from pao.payments.accounts import ReceivingKind, find_active
from pao.payments.gateways.base import GatewayError, GatewayUnavailable
from pao.payments.truemoney import service
from pao.payments.truemoney.adapter import (
    REFUSALS,
    SUCCESS,
    TARGET_USER_NOT_FOUND,
    TARGET_USER_REDEEMED,
    Answer,
    TrueMoneyAdapter,
    VoucherRefused,
    truemoney_base_url,
)
from pao.payments.truemoney.exceptions import (
    NoWallet,
    TrueLinkInvalid,
    TrueLinkMinimum,
    TrueMoneyUnavailable,
)
from pao.payments.truemoney.link import InvalidGiftLink, voucher_hash
from pao.payments.truemoney.models import VoucherRedemption
from pao.protection.service import ensure_may_deposit

log = structlog.get_logger(__name__)

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
            _400="TRUELINK_INVALID | TRUELINK_DUPLICATE | TRANSFER_MINIMUM | NO_WALLET"
            " | DEPOSIT_LIMIT_REACHED | LOSS_LIMIT_REACHED",
            _403="PLAY_EXCLUDED",
            _409="IDEMPOTENCY_KEY_REUSED",
            _422="KEY_MISSING | KEY_INVALID",
            _502="INTERNAL_SERVER_ERROR",
        ),
    },
    summary="Deposit a TrueMoney gift link (minimum 2 baht, each voucher once)",
)
async def truelink(
    body: TrueLinkIn,
    request: Request,
    session: SessionDep,
    member: CurrentMember,
    idempotency_key: IdempotencyKeyHeader = None,
) -> JSONResponse:
    # The voucher's amount is known only once redeemed: refused here when nothing remains.
    await ensure_may_deposit(session, member, None, channel="truemoney")
    try:
        hashed = voucher_hash(body.link)
    except InvalidGiftLink:
        raise TrueLinkInvalid() from None
    owner, operation, payload = f"member:{member.id}", "wallet.truelink", {"voucher": hashed}
    replay = await replayed_answer(
        session, owner=owner, key=idempotency_key, operation=operation, payload=payload
    )
    if replay is not None:
        return JSONResponse(replay)
    wallet = await find_active(session, kind=ReceivingKind.TRUEMONEY, code="TRUEMONEY")
    # A gift link carries baht: a kip wallet has no TrueMoney way in (it would be credited the
    # same number of kip), so it is refused before the voucher is claimed.
    if wallet is None or not wallet.account_no or wallet.currency != member.currency:
        raise NoWallet()
    mobile = wallet.account_no
    claim = await service.claim_voucher(session, member=member, voucher_hash=hashed)
    # The claim is durable before TrueMoney is called; no transaction spans the calls.
    await session.commit()
    adapter = TrueMoneyAdapter(base_url=truemoney_base_url(request.app.state.settings))
    try:
        amount = await _redeem(session, adapter, request.app.state.http, claim, mobile)
    except VoucherRefused as exc:
        await service.fail_voucher(session, redemption_id=claim.id, reason=exc.code)
        raise TrueLinkInvalid(keeps_changes=True) from None
    except GatewayError:
        # Outcome unknown: the claim stays PENDING and the member may submit the link again.
        raise TrueMoneyUnavailable() from None

    async def credit() -> TrueLinkOut:
        row = await service.credit_voucher(session, redemption_id=claim.id, amount=amount)
        return TrueLinkOut(amount=row.amount or 0)

    # The answer is already JSON (major units): returned as is, not re-validated.
    return JSONResponse(
        await run_idempotent(
            session,
            owner=owner,
            key=idempotency_key,
            operation=operation,
            payload=payload,
            action=credit,
        )
    )


async def _redeem(
    session: AsyncSession,
    adapter: TrueMoneyAdapter,
    http: httpx.AsyncClient,
    claim: VoucherRedemption,
    mobile: str,
) -> int:
    """The amount TrueMoney paid into the operator's wallet for this voucher (minor units).

    VoucherRefused: a definite no while nothing can have moved (the claim fails); GatewayError:
    unknown, the claim stays PENDING (ADR 0026, addendum "TrueMoney gift links")."""
    hashed = claim.voucher_hash
    # A redeem sent earlier for this claim may have moved the money with its answer lost:
    # then a refusal no longer proves that nothing moved.
    sent_before = claim.reason == service.REDEEM_SENT
    checked = await adapter.verify(http, voucher_hash=hashed, mobile=mobile)
    if checked.mine is not None and checked.code in (SUCCESS, TARGET_USER_REDEEMED):
        return checked.mine  # the operator's wallet already holds this voucher's share
    _judge(checked, sent_before=sent_before)
    below = checked.share is not None and checked.share < service.MINIMUM
    if checked.code == SUCCESS and not sent_before and below:
        await service.fail_voucher(session, redemption_id=claim.id, reason="BELOW_MINIMUM")
        raise TrueLinkMinimum(service.MINIMUM)
    await service.mark_redeem_sent(session, redemption_id=claim.id)
    await session.commit()
    redeemed = await adapter.redeem(http, voucher_hash=hashed, mobile=mobile)
    if redeemed.code == SUCCESS and redeemed.mine is not None:
        return redeemed.mine
    if redeemed.code in (SUCCESS, TARGET_USER_REDEEMED):
        # Paid to this wallet, the share not named: TrueMoney's check names it.
        confirmed = await adapter.verify(http, voucher_hash=hashed, mobile=mobile)
        if confirmed.mine is not None and confirmed.code in (SUCCESS, TARGET_USER_REDEEMED):
            return confirmed.mine
        log.warning("truemoney share unconfirmed", redeem=redeemed.code, check=confirmed.code)
        raise GatewayUnavailable("TrueMoney redeemed, share not confirmed")
    _judge(redeemed, sent_before=True)
    raise GatewayUnavailable(f"TrueMoney redeem answered {redeemed.code}")


def _judge(answer: Answer, *, sent_before: bool) -> None:
    """Raise for a code that ends the attempt; return for SUCCESS (and TARGET_USER_REDEEMED
    without the share, which the redeem then settles)."""
    if answer.code in REFUSALS:
        if sent_before:
            # Maybe our own lost redeem took the last share: a person must look.
            log.error("truemoney refusal after a redeem was sent", code=answer.code)
            raise GatewayUnavailable(f"TrueMoney {answer.code} after a redeem")
        raise VoucherRefused(answer.code)
    if answer.code == TARGET_USER_NOT_FOUND:
        # The operator's receiving wallet is not a TrueMoney account: the operator must act.
        log.error("truemoney receiving wallet unknown to TrueMoney", code=answer.code)
        raise GatewayUnavailable(answer.code)
