"""The sandbox SMS gateway: an outbox that keeps every text it is asked to deliver.

Pao's SMS adapter posts here when no real gateway is configured; people and tests read the
outbox (newest first) to find an OTP code without a phone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Integer, String, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import UtcDateTime
from pao.kit.clock import utcnow
from pao.sandbox.store import SandboxBase

OUTBOX_LIMIT = 100


class SandboxSms(SandboxBase):
    __tablename__ = "sandbox_sms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    phone: Mapped[str] = mapped_column(String(32), index=True)
    text: Mapped[str] = mapped_column(String(1000))
    sender: Mapped[str | None] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


async def deliver(
    session: AsyncSession, *, phone: str, text: str, sender: str | None
) -> SandboxSms:
    sms = SandboxSms(phone=phone, text=text, sender=sender)
    session.add(sms)
    await session.flush()
    return sms


async def outbox(session: AsyncSession, *, phone: str | None) -> Sequence[SandboxSms]:
    query = select(SandboxSms).order_by(SandboxSms.id.desc()).limit(OUTBOX_LIMIT)
    if phone is not None:
        query = query.where(SandboxSms.phone == phone)
    return (await session.execute(query)).scalars().all()
