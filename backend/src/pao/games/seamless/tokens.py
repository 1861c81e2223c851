"""Session tokens of seamless games: a launch issues one for a member, provider, game and
currency; the provider sends it with every call. A bet needs it unexpired and the member's own;
wins and rollbacks do not look at it (they settle what the player already won or never lost)."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.inserts import insert_now
from pao.games.seamless.models import SeamlessSession
from pao.kit.clock import utcnow
from pao.kit.money import Currency

# As long as a player plays one sitting; the provider asks for a fresh launch after it.
TOKEN_LIFETIME = timedelta(hours=6)


class TokenCheck(StrEnum):
    OK = "ok"
    UNKNOWN = "unknown"  # not issued, or issued to someone else, or for another provider
    EXPIRED = "expired"


async def issue(
    session: AsyncSession, *, provider: str, member_id: int, game_code: str, currency: Currency
) -> str:
    token = secrets.token_urlsafe(32)
    now = utcnow()
    await insert_now(
        session,
        SeamlessSession(
            token=token,
            provider=provider,
            member_id=member_id,
            game_code=game_code,
            currency=currency,
            created_at=now,
            expires_at=now + TOKEN_LIFETIME,
        ),
    )
    return token


async def check(
    session: AsyncSession, *, token: str, provider: str, member_id: int
) -> tuple[TokenCheck, SeamlessSession | None]:
    found = await session.get(SeamlessSession, token)
    verdict = judge(found, provider=provider, member_id=member_id)
    return verdict, None if verdict is TokenCheck.UNKNOWN else found


class TokenRow(Protocol):
    """What :func:`judge` reads of a token: the stored row, or the columns a call read of it."""

    @property
    def provider(self) -> str: ...
    @property
    def member_id(self) -> int: ...
    @property
    def expires_at(self) -> datetime: ...


def judge(found: TokenRow | None, *, provider: str, member_id: int) -> TokenCheck:
    """What the token row read for a call says of it: the caller's own, unexpired, for this
    provider; or unknown (also when it is someone else's); or expired."""
    if found is None or found.provider != provider or found.member_id != member_id:
        return TokenCheck.UNKNOWN
    if found.expires_at <= utcnow():
        return TokenCheck.EXPIRED
    return TokenCheck.OK
