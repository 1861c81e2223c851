"""Gift-link deposits: claim the voucher, redeem it, credit the wallet once.

The claim (a PENDING row, unique per voucher hash) commits *before* TrueMoney is called, so no
transaction spans the call and a concurrent submission of the same voucher by anyone else is
refused with TRUELINK_DUPLICATE. The member who claimed it may submit again after an unknown
outcome (the redeem is idempotent for our wallet); crediting locks the row and moves it
PENDING → CREDITED once, so a second concurrent redeem credits nothing.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.kit.events import DepositCredited, publish
from pao.kit.money import Currency
from pao.kit.states import transition
from pao.ledger.models import AccountKind
from pao.ledger.service import credit_wallet
from pao.payments.truemoney.exceptions import TrueLinkDuplicate, TrueLinkInvalid
from pao.payments.truemoney.models import (
    REDEMPTION_TRANSITIONS,
    RedemptionStatus,
    VoucherRedemption,
)
from pao.wallet.models import StatementStatus, StatementType
from pao.wallet.statements import WALLET_LABEL, record_statement

MINIMUM = 2_00
TRUEMONEY_LABEL = "TRUEMONEY"
VOUCHER_REF = "truemoney_voucher"
# The claim's reason while PENDING once a redeem was sent: from then on a refusal no longer
# proves that nothing moved (ADR 0026, addendum "TrueMoney gift links").
REDEEM_SENT = "REDEEM_SENT"


def _check_claim(row: VoucherRedemption, member_id: int) -> None:
    if row.status == RedemptionStatus.FAILED:
        raise TrueLinkInvalid()
    if row.status == RedemptionStatus.CREDITED or row.member_id != member_id:
        raise TrueLinkDuplicate()


async def claim_voucher(
    session: AsyncSession, *, member: Member, voucher_hash: str
) -> VoucherRedemption:
    """Insert the PENDING claim, or accept the member's own earlier PENDING claim (a retry)."""
    query = select(VoucherRedemption).where(VoucherRedemption.voucher_hash == voucher_hash)
    existing = (await session.execute(query)).scalar_one_or_none()
    if existing is not None:
        _check_claim(existing, member.id)
        return existing
    row = VoucherRedemption(
        voucher_hash=voucher_hash,
        member_id=member.id,
        status=RedemptionStatus.PENDING,
        currency=Currency(member.currency),
    )
    try:
        async with session.begin_nested():
            session.add(row)
            await session.flush()
    except IntegrityError:
        existing = (await session.execute(query)).scalar_one()
        _check_claim(existing, member.id)
        return existing
    return row


async def _lock(session: AsyncSession, redemption_id: int) -> VoucherRedemption:
    query = (
        select(VoucherRedemption)
        .where(VoucherRedemption.id == redemption_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return (await session.execute(query)).scalar_one()


async def fail_voucher(session: AsyncSession, *, redemption_id: int, reason: str) -> None:
    row = await _lock(session, redemption_id)
    if row.status == RedemptionStatus.PENDING:
        row.reason = reason[:60]
        await transition(
            session, row, RedemptionStatus.FAILED, REDEMPTION_TRANSITIONS, actor="truemoney"
        )
        await session.flush()


async def mark_redeem_sent(session: AsyncSession, *, redemption_id: int) -> None:
    row = await _lock(session, redemption_id)
    if row.status == RedemptionStatus.PENDING:
        row.reason = REDEEM_SENT
        await session.flush()


async def credit_voucher(
    session: AsyncSession, *, redemption_id: int, amount: int
) -> VoucherRedemption:
    """PENDING → CREDITED and the money into the wallet, once (TRUELINK_DUPLICATE after)."""
    row = await _lock(session, redemption_id)
    if row.status != RedemptionStatus.PENDING:
        raise TrueLinkDuplicate()
    currency = Currency(row.currency)
    entry = await credit_wallet(
        session,
        source_kind=AccountKind.WALLET_PROVIDER_CLEARING,
        member_id=row.member_id,
        currency=currency,
        amount=amount,
        kind="deposit",
        actor="truemoney",
        memo=f"gift voucher {row.voucher_hash}",
    )
    row.amount = amount
    row.entry_id = entry.id
    row.reason = None
    await transition(
        session, row, RedemptionStatus.CREDITED, REDEMPTION_TRANSITIONS, actor="truemoney"
    )
    await record_statement(
        session,
        member_id=row.member_id,
        statement_type=StatementType.DEPOSIT,
        status=StatementStatus.SUCCESS,
        amount=amount,
        currency=currency,
        from_label=TRUEMONEY_LABEL,
        to_label=WALLET_LABEL,
        ref_type=VOUCHER_REF,
        ref_id=row.voucher_hash,
    )
    await publish(
        session,
        DepositCredited(
            member_id=row.member_id,
            amount=amount,
            currency=currency,
            channel="truemoney",
            reference=f"{VOUCHER_REF}:{row.voucher_hash}",
        ),
    )
    await session.flush()
    return row
