"""Notices on LINE: a deposit credited, a withdrawal paid or rejected, a bonus received.

Each is a subscriber of the domain event (:mod:`pao.kit.events`), so it runs in the money
movement's own transaction: the notice — a bot message in the member's LINE conversation and
its outbox row — commits with the movement or not at all (a rolled-back deposit leaves no
notice), and the outbox sends it after the commit (:mod:`pao.support.line.outbound`). The row's
``notice_key`` names the subject (the deposit's channel and reference, the withdrawal and its
status, the bonus grant) and is unique: a subject is noticed once, however often its event
came. Only to a member whose LINE user is linked, opted in and still follows the Official
Account; in the LINE user's language (their LINE profile's: th, la or en, else th).
"""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.kit.events import (
    BonusReceived,
    DepositCredited,
    WithdrawalChanged,
    WithdrawalPaid,
    subscribe,
)
from pao.kit.i18n import Locale, pick_text
from pao.kit.money import Currency, to_major
from pao.support import service
from pao.support.line import outbound
from pao.support.line.languages import locale_of
from pao.support.line.models import LineContact, LineOutbox
from pao.support.schemas import TextMessage
from pao.wallet.models import Withdrawal, WithdrawalStatus

TEXTS: dict[str, dict[str, str]] = {
    "deposit": {
        "th": "ยอดฝาก {amount} เข้ากระเป๋าของคุณแล้ว",
        "la": "ເງິນຝາກ {amount} ເຂົ້າກະເປົາຂອງທ່ານແລ້ວ",
        "en": "Your deposit of {amount} is in your wallet.",
    },
    "withdrawal_paid": {
        "th": "ถอนเงิน {amount} สำเร็จ โอนเข้าบัญชีธนาคารของคุณแล้ว",
        "la": "ຖອນເງິນ {amount} ສຳເລັດ ໂອນເຂົ້າບັນຊີທະນາຄານຂອງທ່ານແລ້ວ",
        "en": "Your withdrawal of {amount} has been paid to your bank account.",
    },
    "withdrawal_rejected": {
        "th": "คำขอถอนเงิน {amount} ไม่ได้รับการอนุมัติ ยอดเงินกลับเข้ากระเป๋าของคุณแล้ว",
        "la": "ຄຳຂໍຖອນເງິນ {amount} ບໍ່ໄດ້ຮັບການອະນຸມັດ ເງິນກັບເຂົ້າກະເປົາຂອງທ່ານແລ້ວ",
        "en": "Your withdrawal of {amount} was not approved; the money is back in your wallet.",
    },
    "bonus": {
        "th": "คุณได้รับโบนัส {name} {amount}",
        "la": "ທ່ານໄດ້ຮັບໂບນັດ {name} {amount}",
        "en": "You received the bonus {name}: {amount}.",
    },
}


# The lookup every deposit, withdrawal and bonus makes: prebuilt and sent on the executor, as
# the money paths' own statements are (ADR 0014): on PostgreSQL none goes through SQLAlchemy.
_CONTACT = select(LineContact).where(
    LineContact.member_id == bindparam("member_id"),
    LineContact.notices.is_(True),
    LineContact.following.is_(True),
)


def money(amount: int, currency: Currency) -> str:
    """1,234.50 THB; kip without decimals (ARCHITECTURE, money rule 1)."""
    major = to_major(amount)
    shown = f"{major:,.0f}" if currency == Currency.LAK else f"{major:,.2f}"
    return f"{shown} {currency.value}"


async def notify(
    session: AsyncSession,
    *,
    member_id: int,
    key: str,
    kind: str,
    amount: str,
    name: dict[str, str] | str | None = None,
) -> bool:
    """Queue the notice ``kind`` about ``key`` for the member, if they get notices on LINE."""
    row = await executor.fetch_one_or_none(session, _CONTACT, {"member_id": member_id})
    if row is None:
        return False
    contact = executor.attach(session, LineContact, row)
    if await session.scalar(select(LineOutbox.message_id).where(LineOutbox.notice_key == key)):
        return False  # noticed already
    language: Locale = locale_of(contact.language)
    shown_name = pick_text(name, language, fallback="th") if name else ""
    text = TEXTS[kind][language].format(amount=amount, name=shown_name)
    try:
        async with session.begin_nested():
            conversation = await service.open_conversation(
                session,
                customer=service.Customer(
                    line_user_id=contact.line_user_id, line_name=contact.display_name
                ),
            )
            message = await service.store_message(
                session,
                conversation=conversation,
                sender="bot",
                message=TextMessage(message_type="text", payload=text),
            )
            await outbound.enqueue(
                session, message=message, line_user_id=contact.line_user_id, notice_key=key
            )
    except IntegrityError:
        return False  # a concurrent twin queued it first
    return True


@subscribe(DepositCredited)
async def deposit_credited(session: AsyncSession, event: DepositCredited) -> None:
    await notify(
        session,
        member_id=event.member_id,
        key=f"deposit:{event.channel}:{event.reference}"[:120],
        kind="deposit",
        amount=money(event.amount, event.currency),
    )


@subscribe(WithdrawalPaid)
async def withdrawal_paid(session: AsyncSession, event: WithdrawalPaid) -> None:
    await notify(
        session,
        member_id=event.member_id,
        key=f"withdrawal:{event.withdrawal_id}:PAID",
        kind="withdrawal_paid",
        amount=money(event.amount, event.currency),
    )


@subscribe(WithdrawalChanged)
async def withdrawal_rejected(session: AsyncSession, event: WithdrawalChanged) -> None:
    if event.status != WithdrawalStatus.REJECTED:
        return
    withdrawal = await session.get(Withdrawal, event.withdrawal_id)
    if withdrawal is None:
        return
    await notify(
        session,
        member_id=withdrawal.member_id,
        key=f"withdrawal:{withdrawal.id}:REJECTED",
        kind="withdrawal_rejected",
        amount=money(withdrawal.amount, Currency(withdrawal.currency)),
    )


@subscribe(BonusReceived)
async def bonus_received(session: AsyncSession, event: BonusReceived) -> None:
    await notify(
        session,
        member_id=event.member_id,
        key=f"bonus:{event.member_bonus_id}",
        kind="bonus",
        name=event.name,
        amount=money(event.amount, event.currency),
    )
