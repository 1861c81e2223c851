"""The wallet screen (``GET /api/wallet``) in one statement: the login session behind the
bearer token with its member, the wallet balance, the invite summary, and every enabled game
with the member's account on it.

Every page load asks for it, so it is built lean (docs/benchmarks.md): one round trip instead
of three, Core rows instead of ORM objects, and the body validated and serialised once, by the
response model's own serializer. Authentication keeps identity's rules
(:mod:`pao.identity.deps`): the statement only finds the member of a known token, and nothing
is shown unless that login is open and the member active.
"""

from __future__ import annotations

from typing import Any

from fastapi.security import HTTPAuthorizationCredentials
from pydantic import TypeAdapter
from sqlalchemy import String, bindparam, cast, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.errors import Unauthorized
from pao.games.availability import screen_statuses
from pao.games.service import SLOT_COLUMNS, SLOT_ORDER, slot_fields, with_slots
from pao.identity.deps import bearer_digest, require_active_member, require_open_login
from pao.identity.models import LoginSession, Member
from pao.identity.schemas import bank_account_fields
from pao.promotions.invite import summary_columns, summary_of
from pao.site.settings import load_site_settings
from pao.wallet.schemas import WalletResponse
from pao.wallet.service import balance_query

_members = Member.__table__
_logins = LoginSession.__table__

# The balance as pao.wallet.service.wallet_balance reads it, for the member of the row.
_BALANCE = (
    balance_query(cast(_members.c.id, String), _members.c.currency)
    .scalar_subquery()
    .label("balance")
)

# The login and its member, one row (the digest is unique). LIMIT 1 changes no result; it keeps
# PostgreSQL from merging this subquery into the join with the games, which would run the
# balance and invite subqueries once per game instead of once.
_ME = (
    select(
        _logins.c.revoked_at,
        _logins.c.expires_at,
        _members.c.id,
        _members.c.status,
        _members.c.name,
        _members.c.phone,
        _members.c.coin,
        _members.c.currency,
        _members.c.bank_code,
        _members.c.bank_account_name,
        _members.c.bank_account_no,
        _BALANCE,
        *summary_columns(_members.c.id),
    )
    .join_from(_logins, _members, _members.c.id == _logins.c.member_id)
    .where(_logins.c.token_digest == bindparam("digest"))
    .limit(1)
    .subquery("me")
)
# One row per enabled game (or one row when there is none), each carrying the member's row.
# Public: the bench runs this very statement bare, as the read path's baseline (bench/app.py).
SCREEN = select(_ME, *SLOT_COLUMNS).select_from(with_slots(_ME, _ME.c.id)).order_by(*SLOT_ORDER)

# Where a row's SLOT_COLUMNS begin (they come last); the first is the game's code, null in the
# one row of a screen without games.
_SLOTS_AT = len(_ME.c)
_RESPONSE = TypeAdapter(WalletResponse)


async def wallet_screen(
    app: Any, session: AsyncSession, credentials: HTTPAuthorizationCredentials | None
) -> bytes:
    """The JSON body of ``GET /api/wallet`` for the bearer of ``credentials`` (401
    ``invalid-token`` for a missing, unknown, revoked or expired token, or a member who is
    not active). Each game carries its provider's state (pao.games.availability), read at most
    once a second per app."""
    rows = (await session.execute(SCREEN, {"digest": bearer_digest(credentials)})).all()
    if not rows:
        raise Unauthorized()
    me = rows[0]
    require_open_login(revoked_at=me.revoked_at, expires_at=me.expires_at)
    require_active_member(me.status)
    ufa_host = (await load_site_settings(session)).ufa_host
    providers = await screen_statuses(app, session)
    invite = summary_of(invitees=me.invitees, earning=me.earning, uncollected=me.uncollected)
    body = {
        "profile": {"name": me.name, "username": me.phone, "coin": me.coin, "id": str(me.id)},
        "bank_account": bank_account_fields(
            bank_code=me.bank_code,
            bank_account_name=me.bank_account_name,
            bank_account_no=me.bank_account_no,
        ),
        "wallet": {"amount": int(me.balance or 0), "currency": me.currency},
        "invite": {"amount": invite.amount, "success": invite.success, "fail": invite.fail},
        "slots": [
            slot_fields(row[_SLOTS_AT:], ufa_host=ufa_host, status=providers.get(row[_SLOTS_AT]))
            for row in rows
            if row[_SLOTS_AT] is not None
        ],
    }
    # What FastAPI would do with a returned model (validate, then dump_json by alias), once.
    return _RESPONSE.dump_json(_RESPONSE.validate_python(body), by_alias=True)
