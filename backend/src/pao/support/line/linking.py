"""Linking a LINE user to a member: a one-time code from the player app, sent in LINE.

The member asks for a code in their profile (``PAO-`` and 8 letters and digits, no look-alikes:
40 bits, good for :data:`CODE_MINUTES` minutes, one live code per member: a new one replaces
it) and sends it to the Official Account; the LINE user who sends it is linked to that member
(a member has one LINE user, a LINE user one member: linking again moves the link). The member
may then opt in to notices (:mod:`pao.support.line.notices`) and unlink in one step. Nothing
here commits.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.support.line.models import LineContact, LineLinkCode

CODE_MINUTES = 15
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
_CODE_LENGTH = 8
PREFIX = "PAO-"
# What a LINE user's text must be to count as a code (case, spaces and a dash are forgiven).
_CODE_TEXT = re.compile(r"^\s*PAO\s*-?\s*([A-Z0-9]{8})\s*$", re.IGNORECASE)


# The Official Account's answer to a code, in the LINE user's language.
REPLIES: dict[bool, dict[str, str]] = {
    True: {
        "th": "เชื่อม LINE กับบัญชีของคุณเรียบร้อยแล้ว",
        "la": "ເຊື່ອມ LINE ກັບບັນຊີຂອງທ່ານສຳເລັດແລ້ວ",
        "en": "LINE is now linked to your account.",
    },
    False: {
        "th": "รหัสนี้ใช้ไม่ได้หรือหมดอายุแล้ว กรุณาขอรหัสใหม่ในหน้าโปรไฟล์",
        "la": "ລະຫັດນີ້ໃຊ້ບໍ່ໄດ້ ຫຼື ໝົດອາຍຸແລ້ວ ກະລຸນາຂໍລະຫັດໃໝ່ໃນໜ້າໂປຣໄຟລ໌",
        "en": "This code is not valid or has expired; ask for a new one in your profile.",
    },
}


@dataclass(frozen=True)
class LinkState:
    linked: bool
    display_name: str | None
    notices: bool
    following: bool
    code: str | None
    code_expires_at: datetime | None


def _new_code() -> str:
    return PREFIX + "".join(secrets.choice(_ALPHABET) for _ in range(_CODE_LENGTH))


async def contact_of_member(session: AsyncSession, member_id: int) -> LineContact | None:
    found = await session.execute(select(LineContact).where(LineContact.member_id == member_id))
    return found.scalar_one_or_none()


async def new_code(session: AsyncSession, *, member_id: int) -> LineLinkCode:
    """A fresh code for the member; their earlier unused ones stop working."""
    await session.execute(
        delete(LineLinkCode).where(
            LineLinkCode.member_id == member_id, LineLinkCode.used_at.is_(None)
        )
    )
    now = utcnow()
    code = LineLinkCode(
        code=_new_code(),
        member_id=member_id,
        created_at=now,
        expires_at=now + timedelta(minutes=CODE_MINUTES),
    )
    session.add(code)
    await session.flush()
    return code


async def state(session: AsyncSession, *, member_id: int) -> LinkState:
    contact = await contact_of_member(session, member_id)
    live = await session.execute(
        select(LineLinkCode).where(
            LineLinkCode.member_id == member_id,
            LineLinkCode.used_at.is_(None),
            LineLinkCode.expires_at > utcnow(),
        )
    )
    code = live.scalars().first()
    return LinkState(
        linked=contact is not None,
        display_name=contact.display_name if contact else None,
        notices=bool(contact and contact.notices),
        following=bool(contact and contact.following),
        code=code.code if code and contact is None else None,
        code_expires_at=code.expires_at if code and contact is None else None,
    )


def code_in(text: str) -> str | None:
    """The link code a LINE user's text is, normalised (``PAO-XXXXXXXX``), else None."""
    match = _CODE_TEXT.match(text)
    return PREFIX + match.group(1).upper() if match else None


async def redeem(session: AsyncSession, *, contact: LineContact, code: str) -> bool:
    """Link ``contact`` to the code's member if the code is live; False otherwise."""
    now = utcnow()
    taken = await session.execute(
        update(LineLinkCode)
        .where(
            LineLinkCode.code == code,
            LineLinkCode.used_at.is_(None),
            LineLinkCode.expires_at > now,
        )
        .values(used_at=now)
        .returning(LineLinkCode.member_id)
    )
    member_id = taken.scalar_one_or_none()
    if member_id is None:
        return False
    if contact.member_id != member_id:
        # The member's earlier LINE user, if another, lets go of them (one LINE user each).
        await session.execute(
            update(LineContact)
            .where(LineContact.member_id == member_id)
            .values(member_id=None, linked_at=None, notices=False)
        )
        await session.flush()
        contact.member_id = member_id
        contact.linked_at = now
        contact.notices = False
    await session.flush()
    return True


async def set_notices(session: AsyncSession, *, member_id: int, enabled: bool) -> bool:
    """Opt in or out; False when the member has no LINE user linked."""
    contact = await contact_of_member(session, member_id)
    if contact is None:
        return False
    contact.notices = enabled
    await session.flush()
    return True


async def unlink(session: AsyncSession, *, member_id: int) -> None:
    contact = await contact_of_member(session, member_id)
    if contact is not None:
        contact.member_id = None
        contact.linked_at = None
        contact.notices = False
        await session.flush()
