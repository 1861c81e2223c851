"""The wallet screen (``GET /api/wallet``) in one statement: the login session behind the
bearer token with its member, the wallet balance, the invite summary, and every enabled game
with the member's account on it. The invite summary is the promotions domain's: it comes
through the wallet's port (:data:`pao.wallet.ports.INVITE_SUMMARY`) as columns of the same
statement, which is therefore built on first use, once that port is plugged.

Every page load asks for it, so it is built lean (docs/benchmarks.md): one round trip instead
of three, Core rows instead of ORM objects, and the body validated and serialised once, by the
response model's own serializer. Authentication keeps identity's rules
(:mod:`pao.identity.deps`): the statement only finds the member of a known token, and nothing
is shown unless that login is open and the member active.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi.security import HTTPAuthorizationCredentials
from pydantic import TypeAdapter
from sqlalchemy import Select, String, bindparam, cast, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core import executor
from pao.core.errors import Unauthorized
from pao.games.availability import screen_statuses
from pao.games.service import SLOT_COLUMNS, SLOT_ORDER, slot_fields, with_slots
from pao.identity.deps import bearer_digest, require_active_member, require_open_login
from pao.identity.models import LoginSession, Member
from pao.identity.schemas import bank_account_fields
from pao.site.settings import load_site_settings
from pao.wallet.ports import INVITE_SUMMARY, InviteSummaryQuery
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
_RESPONSE = TypeAdapter(WalletResponse)


@dataclass(frozen=True)
class _Screen:
    """The statement, built once for the invite summary plugged into
    :data:`~pao.wallet.ports.INVITE_SUMMARY` (promotions owns those columns)."""

    invite: InviteSummaryQuery
    statement: Select[Any]
    slots_at: int  # where a row's SLOT_COLUMNS begin (they come last)
    me: Callable[..., Any]  # the member's part of a row, by its columns' names


def _build(invite: InviteSummaryQuery) -> _Screen:
    # The login and its member, one row (the digest is unique). LIMIT 1 changes no result; it
    # keeps PostgreSQL from merging this subquery into the join with the games, which would
    # run the balance and invite subqueries once per game instead of once.
    me = (
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
            *invite.columns(_members.c.id),
        )
        .join_from(_logins, _members, _members.c.id == _logins.c.member_id)
        .where(_logins.c.token_digest == bindparam("digest"))
        .limit(1)
        .subquery("me")
    )
    # One row per enabled game (or one row when there is none), each carrying the member's
    # row; the first slot column is the game's code, null in the one row of a screen without
    # games.
    statement = select(me, *SLOT_COLUMNS).select_from(with_slots(me, me.c.id))
    named = namedtuple("Me", list(me.c.keys()))  # type: ignore[misc]
    return _Screen(invite, statement.order_by(*SLOT_ORDER), len(me.c), named)


_screen: _Screen | None = None


def _current() -> _Screen:
    """The screen for the plugged-in invite summary: built on first use (the port is plugged
    at start-up, after this module is imported), then only an identity check per request."""
    global _screen
    invite = INVITE_SUMMARY.impl
    screen = _screen
    if screen is None or screen.invite is not invite:
        screen = _screen = _build(invite)
    return screen


def screen_statement() -> Select[Any]:
    """The statement ``GET /api/wallet`` sends. Public: the bench runs this very statement
    bare, as the read path's baseline (bench/app.py)."""
    return _current().statement


async def wallet_screen(
    app: Any, session: AsyncSession, credentials: HTTPAuthorizationCredentials | None
) -> bytes:
    """The JSON body of ``GET /api/wallet`` for the bearer of ``credentials`` (401
    ``invalid-token`` for a missing, unknown, revoked or expired token, or a member who is
    not active). Each game carries its provider's state (pao.games.availability), read at most
    once a second per app."""
    screen = _current()
    digest = bearer_digest(credentials)
    rows = await executor.read(app.state.engine, session, screen.statement, {"digest": digest})
    if not rows:
        raise Unauthorized()
    at = screen.slots_at
    me = screen.me(*rows[0][:at])
    require_open_login(revoked_at=me.revoked_at, expires_at=me.expires_at)
    require_active_member(me.status)
    ufa_host = (await load_site_settings(session)).ufa_host
    providers = await screen_statuses(app, session)
    invite = screen.invite.figures(me)
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
            slot_fields(row[at:], ufa_host=ufa_host, status=providers.get(row[at]))
            for row in rows
            if row[at] is not None
        ],
    }
    # What FastAPI would do with a returned model (validate, then dump_json by alias), once.
    return _RESPONSE.dump_json(_RESPONSE.validate_python(body), by_alias=True)
