"""Staff by the name colleagues know them by, where a record keeps only how they signed it.

The domains sign what staff do with a label, not a staff id: ``staff:<login>`` on withdrawals
and status changes, the bare login on adjustments and settings versions, ``ops:<user>`` at the
shell. A screen shows the staff member's display name instead ("Decided by Ann", not "Decided by
staff:ann"); :func:`names_of` resolves a page's labels in one query, and a label that names no
staff member (the shell, the system, a removed login) stays as it is.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.models import Staff

STAFF_PREFIX = "staff:"
# Labels that never name a staff member: an operator at the shell, the code itself.
_NOT_STAFF_PREFIXES = ("ops:", "system")


def login_in(label: str) -> str | None:
    """The staff login a label names, if it can name one."""
    if not label or label.startswith(_NOT_STAFF_PREFIXES):
        return None
    return label.removeprefix(STAFF_PREFIX)


async def names_of(session: AsyncSession, labels: Iterable[str | None]) -> dict[str, str]:
    """Each label that names a staff member → that member's display name (one query)."""
    logins = {label: login for label in labels if label and (login := login_in(label))}
    if not logins:
        return {}
    rows = await session.execute(
        select(Staff.login, Staff.display_name).where(Staff.login.in_(set(logins.values())))
    )
    names = {login: name for login, name in rows.all()}
    return {label: names[login] for label, login in logins.items() if login in names}


def shown(label: str | None, names: dict[str, str]) -> str | None:
    """A label as a screen shows it: the display name when it names a staff member."""
    if label is None:
        return None
    return names.get(label, label)
