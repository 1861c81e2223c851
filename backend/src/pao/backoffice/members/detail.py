"""The member's page, composed from each domain's own read functions: identity (profile,
logins, recent bank change, linked members), wallet (balance), promotions (the active bonus and
its turnover)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.members.links import LinkedMemberOut
from pao.backoffice.members.schemas import (
    MemberActiveBonusOut,
    MemberBankOut,
    MemberDetail,
    MemberLoginOut,
)
from pao.identity.changes import bank_changed_since
from pao.identity.links import linked_members
from pao.identity.logins import list_logins
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.kit.i18n import default_locale, pick_text
from pao.kit.money import Currency
from pao.promotions.bonuses import progress
from pao.promotions.common import active_bonus
from pao.site.settings import load_site_settings
from pao.wallet.service import wallet_balance

RECENT_LOGINS = 5
LINKED_SHOWN = 20


async def _active_bonus(
    app: Any, session: AsyncSession, member: Member
) -> MemberActiveBonusOut | None:
    grant = await active_bonus(session, member_id=member.id)
    if grant is None:
        return None
    found = await progress(app, session, member=member, grant=grant)
    # Staff read the operator's own language, as on the withdrawal queue.
    default = default_locale(lao_mode=bool(app.state.settings.lao_mode))
    return MemberActiveBonusOut(
        name=pick_text(found.bonus.name, default, fallback=default),
        turnover_required=grant.turnover_required,
        turnover_done=found.turnover,
    )


async def member_detail(app: Any, session: AsyncSession, member: Member) -> MemberDetail:
    now = utcnow()
    site = await load_site_settings(session)
    hold_hours = site.bank_change_hold_hours
    changed = hold_hours > 0 and await bank_changed_since(
        session, member_id=member.id, since=now - timedelta(hours=hold_hours)
    )
    _, logins = await list_logins(session, member_id=member.id, offset=0, limit=RECENT_LOGINS)
    return MemberDetail(
        id=member.id,
        phone=member.phone,
        name=member.name,
        status=member.status,
        currency=member.currency,
        invite_code=member.invite_code,
        inviter_id=member.inviter_id,
        source_code=member.source_code,
        created_at=member.created_at,
        coin=member.coin,
        bank=MemberBankOut.of(member),
        balance=await wallet_balance(
            session, member_id=member.id, currency=Currency(member.currency)
        ),
        active_bonus=await _active_bonus(app, session, member),
        bank_changed_recently=changed,
        recent_logins=[MemberLoginOut.of(row, now=now) for row in logins],
        linked_members=[
            LinkedMemberOut.of_link(link)
            for link in await linked_members(
                session,
                member=member,
                window_hours=site.linked_address_window_hours,
                with_address=site.hold_linked_address,
                limit=LINKED_SHOWN,
            )
        ],
    )
