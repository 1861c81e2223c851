"""The reality check: a reminder every N minutes of a login session, chosen by the member, that
shows how long they have been logged in and their net result since login.

**Net result since login** is read from the ledger: the sum of the movements of the member's
wallet, since the login began, in journal entries that move money between the wallet and play —
a seamless game's bets, wins and rollbacks (its clearing account) and transfers to and from game
accounts (the transfers' suspense and the provider's float). Positive: more came back from play
than went to it; negative: the loss. Deposits, withdrawals, bonuses and staff adjustments are
not play and do not count. Money still sitting in a transfer-mode game account counts as gone
to play until it is transferred back (what the wallet shows).

The app asks once when it starts and once each time a reminder is due; the figures are
computed then (one indexed sum over the wallet's postings of the session), never polled.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, exists, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from pao.core.inserts import insert_now, update_now
from pao.identity.models import Member
from pao.kit.clock import utcnow
from pao.ledger.models import AccountKind, JournalEntry, LedgerAccount, Posting
from pao.protection.exceptions import ProtectionChangeRefused
from pao.protection.models import ProtectionSetting

# The intervals the app offers (minutes).
INTERVALS: frozenset[int] = frozenset({15, 30, 45, 60, 90, 120})
# Accounts on the other side of the wallet when money goes to play or comes back from it.
PLAY_ACCOUNTS = (
    AccountKind.SEAMLESS_CLEARING,
    AccountKind.GAME_TRANSFERS_PENDING,
    AccountKind.PROVIDER_FLOAT,
)


async def interval(session: AsyncSession, member_id: int) -> int | None:
    """The member's reminder interval in minutes; None: off."""
    setting = await session.get(ProtectionSetting, member_id)
    return None if setting is None else setting.reality_check_minutes


async def set_interval(session: AsyncSession, member: Member, minutes: int | None) -> None:
    """Choose the interval (one of :data:`INTERVALS`) or turn the reminder off (None)."""
    if minutes is not None and minutes not in INTERVALS:
        raise ProtectionChangeRefused(field="minutes")
    setting = await session.get(ProtectionSetting, member.id)
    if setting is None:
        await insert_now(
            session, ProtectionSetting(member_id=member.id, reality_check_minutes=minutes)
        )
    else:
        await update_now(
            session, setting, {"reality_check_minutes": minutes, "updated_at": utcnow()}
        )


async def net_since(session: AsyncSession, member: Member, since: datetime) -> int:
    """The member's net result from play since ``since`` (minor units; negative: a loss)."""
    wallet = aliased(LedgerAccount)
    other = aliased(Posting)
    other_account = aliased(LedgerAccount)
    play = exists().where(
        other.entry_id == Posting.entry_id,
        other_account.id == other.account_id,
        other_account.kind.in_([kind.value for kind in PLAY_ACCOUNTS]),
    )
    total = await session.scalar(
        select(func.coalesce(func.sum(Posting.amount), 0))
        .select_from(Posting)
        .join(
            wallet,
            and_(
                wallet.id == Posting.account_id,
                wallet.kind == AccountKind.PLAYER_WALLET.value,
                wallet.owner == str(member.id),
                wallet.currency == member.currency,
            ),
        )
        .join(JournalEntry, JournalEntry.id == Posting.entry_id)
        .where(JournalEntry.created_at >= since, play)
    )
    return int(total or 0)
