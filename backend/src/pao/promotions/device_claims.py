"""A bonus a member may receive once in a lifetime may be received once per device, too.

A welcome bonus is the classic abuse: one person registers a second account (another phone
number, a relative's bank account) and takes it again. Bank accounts are already unique per
member; the device is the player app's own id (:mod:`pao.identity.device`). Which bonuses:
every promotion code (once per member by definition) and every bonus counted over all time
(``type`` LIMIT) with ``max_received`` 1; a bonus a member may take again each day or week is
not a welcome gift and is left alone.

The first member to receive such a bonus on a device owns that (bonus, device) pair; another
member asking on the same device is refused ``BONUS_DEVICE_CLAIMED``. The pair is written in
the grant's transaction, so a refused or failed grant leaves no claim behind, and two members
racing on one device meet on the primary key: the second waits for the first and is refused
once it commits. A request without a device id (not from the app) is not checked: a device id
is a signal a script can change, and docs/security.md says so.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.inserts import insert_unless_present
from pao.kit.clock import utcnow
from pao.promotions.exceptions import BonusDeviceClaimed
from pao.promotions.models import Bonus, BonusDeviceClaim, BonusKind, BonusType

_CLAIM = insert_unless_present(
    BonusDeviceClaim.__table__,
    unique=("bonus_id", "device_id"),
    returning=(BonusDeviceClaim.member_id,),
)


def once_per_device(bonus: Bonus) -> bool:
    """Whether ``bonus`` is a once-in-a-lifetime gift (module docstring)."""
    if bonus.kind == BonusKind.PROMOTION:
        return True
    return bonus.type == BonusType.LIMIT and bonus.max_received == 1


async def claim_device(
    session: AsyncSession, *, bonus: Bonus, member_id: int, device_id: str | None
) -> None:
    """Record that ``member_id`` receives ``bonus`` on ``device_id``; refuse when another member
    already received it there."""
    if device_id is None or not once_per_device(bonus):
        return
    statement = _CLAIM[session.get_bind().dialect.name]
    values = {
        "bonus_id": bonus.id,
        "device_id": device_id,
        "member_id": member_id,
        "created_at": utcnow(),
    }
    if (await session.execute(statement, values)).scalar_one_or_none() is not None:
        return
    owner = await session.scalar(
        select(BonusDeviceClaim.member_id).where(
            BonusDeviceClaim.bonus_id == bonus.id, BonusDeviceClaim.device_id == device_id
        )
    )
    if owner != member_id:
        raise BonusDeviceClaimed()
