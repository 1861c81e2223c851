"""Invite income: an inviter earns a share of each qualifying deposit of the members they
invited (``PR<id>`` at registration), up to a cap per invitee, and collects it into the
wallet.

* Accrual (:func:`accrue`, on :class:`~pao.kit.events.DepositCredited`, in the deposit's
  transaction): ``inviteRateBp`` of a deposit ≥ ``inviteMinDeposit``, while the invitee's
  total stays within ``inviteMaxPerInvitee``; one row per deposit reference (unique).
* Collection (:func:`collect`): under the member lock, every uncollected row is attached to
  one new collection and paid once (bonus_expense → wallet). A concurrent second click finds
  nothing left: ``NO_INVITE_BONUS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Label, bindparam, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.inserts import insert_now
from pao.identity.models import Member
from pao.kit.events import DepositCredited
from pao.kit.pagination import PageRequest
from pao.promotions import rules
from pao.promotions.common import lock_member, pay_reward
from pao.promotions.exceptions import InviteInactive, NoInviteBonus
from pao.promotions.models import InviteCollection, InviteIncome
from pao.site.settings import load_site_settings
from pao.wallet.statement_notes import NoteCode, note


async def accrue(session: AsyncSession, event: DepositCredited) -> InviteIncome | None:
    settings = await load_site_settings(session)
    if not settings.invite_enabled:
        return None
    invitee = await session.get(Member, event.member_id)
    if invitee is None or invitee.inviter_id is None:
        return None
    # The rules of the deposit's currency; income is offered only when they are set for it and
    # the inviter's wallet is in that currency too (it is paid there, never converted).
    min_deposit = settings.invite_min_deposit.for_currency(event.currency)
    cap = settings.invite_max_per_invitee.for_currency(event.currency)
    if min_deposit is None or cap is None:
        return None
    inviter_currency = await session.scalar(
        select(Member.currency).where(Member.id == invitee.inviter_id)
    )
    if inviter_currency != event.currency:
        return None
    earned = (
        await session.execute(
            select(func.coalesce(func.sum(InviteIncome.amount), 0)).where(
                InviteIncome.invitee_id == invitee.id
            )
        )
    ).scalar_one()
    amount = rules.invite_income(
        deposit=event.amount,
        rate_bp=settings.invite_rate_bp,
        min_deposit=min_deposit,
        cap_per_invitee=cap,
        earned_so_far=int(earned),
    )
    if amount <= 0:
        return None
    return await insert_now(
        session,
        InviteIncome(
            inviter_id=invitee.inviter_id,
            invitee_id=invitee.id,
            amount=amount,
            currency=event.currency,
            deposit_reference=event.reference,
        ),
    )


async def uncollected(session: AsyncSession, *, member_id: int) -> int:
    total = (
        await session.execute(
            select(func.coalesce(func.sum(InviteIncome.amount), 0)).where(
                InviteIncome.inviter_id == member_id, InviteIncome.collection_id.is_(None)
            )
        )
    ).scalar_one()
    return int(total)


@dataclass(frozen=True)
class InviteSummary:
    amount: int  # accrued, not collected yet
    success: int  # invitees who earned the inviter something
    fail: int  # invitees who have not (yet) made a qualifying deposit


def summary_columns(member_id: ColumnElement[Any]) -> tuple[Label[Any], Label[Any], Label[Any]]:
    """The invite summary of ``member_id`` (a parameter, or a column of an enclosing query) as
    three scalar subqueries: ``invitees``, ``earning``, ``uncollected``.

    The wallet screen asks on every load, inside its one statement (pao.wallet.screen)."""
    # Core tables, not the mapped classes: the wallet screen's statement stays a Core one (no
    # ORM compile and result step). ``members`` is aliased: when ``member_id`` is a column of
    # ``members`` in the enclosing query, the invitees must not be correlated with it.
    invitees = Member.__table__.alias("invitees")
    incomes = InviteIncome.__table__
    return (
        select(func.count())
        .select_from(invitees)
        .where(invitees.c.inviter_id == member_id)
        .scalar_subquery()
        .label("invitees"),
        select(func.count(func.distinct(incomes.c.invitee_id)))
        .where(incomes.c.inviter_id == member_id)
        .scalar_subquery()
        .label("earning"),
        select(func.coalesce(func.sum(incomes.c.amount), 0))
        .where(incomes.c.inviter_id == member_id, incomes.c.collection_id.is_(None))
        .scalar_subquery()
        .label("uncollected"),
    )


_SUMMARY = select(*summary_columns(bindparam("member_id")))


def summary_of(*, invitees: int, earning: int, uncollected: int) -> InviteSummary:
    """The summary from the values of :func:`summary_columns`."""
    return InviteSummary(
        amount=int(uncollected), success=int(earning), fail=max(0, int(invitees) - int(earning))
    )


async def summary(session: AsyncSession, *, member_id: int) -> InviteSummary:
    row = (await session.execute(_SUMMARY, {"member_id": member_id})).one()
    return summary_of(invitees=row.invitees, earning=row.earning, uncollected=row.uncollected)


@dataclass(frozen=True)
class InviteLine:
    name: str
    amount: int
    income: InviteIncome


async def list_incomes(
    session: AsyncSession, *, member_id: int, page: PageRequest
) -> tuple[int, list[InviteLine]]:
    total = (
        await session.execute(
            select(func.count())
            .select_from(InviteIncome)
            .where(InviteIncome.inviter_id == member_id)
        )
    ).scalar_one()
    rows = await session.execute(
        select(InviteIncome, Member.name)
        .join(Member, Member.id == InviteIncome.invitee_id)
        .where(InviteIncome.inviter_id == member_id)
        .order_by(InviteIncome.created_at.desc(), InviteIncome.id.desc())
        .limit(page.limit)
        .offset(page.offset)
    )
    return int(total), [
        InviteLine(name=name, amount=income.amount, income=income) for income, name in rows
    ]


async def collect(session: AsyncSession, *, member: Member) -> InviteCollection:
    """Pay every accrued, uncollected invite income into the wallet, once."""
    settings = await load_site_settings(session)
    if not settings.invite_enabled:
        raise InviteInactive()
    member = await lock_member(session, member_id=member.id)
    amount = await uncollected(session, member_id=member.id)
    if amount <= 0:
        raise NoInviteBonus()
    collection = InviteCollection(
        member_id=member.id, amount=amount, currency=member.currency, entry_id=None
    )
    session.add(collection)
    await session.flush()
    await session.execute(
        update(InviteIncome)
        .where(InviteIncome.inviter_id == member.id, InviteIncome.collection_id.is_(None))
        .values(collection_id=collection.id)
        .execution_options(synchronize_session=False)
    )
    attached = (
        await session.execute(
            select(func.coalesce(func.sum(InviteIncome.amount), 0)).where(
                InviteIncome.collection_id == collection.id
            )
        )
    ).scalar_one()
    # Under the member lock nothing changes in between; if it ever did, pay nothing.
    if int(attached) != amount:
        raise NoInviteBonus()
    payout = await pay_reward(
        session,
        member=member,
        amount=amount,
        kind="invite_bonus",
        ref_type="invite_collection",
        ref_id=collection.id,
        extra={"invite": note(NoteCode.INVITE_COLLECTED)},
        memo="invite bonus",
    )
    collection.entry_id = payout.entry.id
    await session.flush()
    return collection
