"""Helpers for back-office tests: staff members, their TOTP codes, tokens and logins.

Typical use::

    from tests.staff_helpers import add_staff, log_in

    async def test_something(client: httpx.AsyncClient, app: FastAPI) -> None:
        owner = await add_staff(app, role=Role.OWNER)
        token = await log_in(client, owner)            # password + TOTP through the API
        token2 = await open_token(app, owner)          # a session made directly (no login)

Staff are created through :func:`pao.backoffice.staff.service.create_staff` (what ``pao ops staff
add`` calls), each with its own TOTP secret. A code logs in once per 30-second step (replay
protection): a test that logs the same staff member in twice moves the test clock on first
(:func:`next_step`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from pao.backoffice.audit.service import Actor
from pao.backoffice.models import Staff
from pao.backoffice.sessions import service as sessions
from pao.backoffice.staff import totp
from pao.backoffice.staff.roles import Role
from pao.backoffice.staff.service import create_staff
from pao.kit.clock import clock, utcnow

STAFF_PASSWORD = "staff-pass-123"
_serial = itertools.count(1)


@dataclass(frozen=True)
class StaffAccount:
    id: int
    login: str
    role: Role
    password: str
    secret: str
    display_name: str


def _sessionmaker(
    where: FastAPI | async_sessionmaker[AsyncSession],
) -> async_sessionmaker[AsyncSession]:
    if isinstance(where, FastAPI):
        factory: async_sessionmaker[AsyncSession] = where.state.sessionmaker
        return factory
    return where


async def add_staff(
    where: FastAPI | async_sessionmaker[AsyncSession],
    *,
    role: Role = Role.SUPPORT,
    login: str | None = None,
    password: str = STAFF_PASSWORD,
    name: str | None = None,
) -> StaffAccount:
    """A new staff member (TOTP pending: the first login enrols), committed."""
    login = login or f"{role.value}{next(_serial)}"
    async with _sessionmaker(where)() as s:
        staff, enrolment = await create_staff(
            s,
            actor=Actor.operator("test"),
            login=login,
            password=password,
            role=role,
            display_name=name,
        )
        await s.commit()
        return StaffAccount(
            id=staff.id,
            login=staff.login,
            role=role,
            password=password,
            secret=enrolment.secret,
            display_name=staff.display_name,
        )


async def open_token(app: FastAPI, account: StaffAccount, *, ip: str = "127.0.0.1") -> str:
    """A live session for ``account`` opened directly (enrolled, no login, no audit)."""
    async with app.state.sessionmaker() as s:
        staff = await s.get(Staff, account.id)
        assert staff is not None
        staff.totp_enrolled_at = staff.totp_enrolled_at or utcnow()
        token, _ = await sessions.open_session(s, staff=staff, ip=ip, user_agent="tests")
        await s.commit()
    return token


def code_now(account: StaffAccount, *, steps: int = 0) -> str:
    """The account's TOTP code now (or ``steps`` steps away)."""
    return totp.code_at(account.secret, utcnow() + timedelta(seconds=30 * steps))


def next_step() -> None:
    """Move the test clock to the next TOTP step (a new code)."""
    clock.advance(timedelta(seconds=totp.STEP_SECONDS))


async def password_step(
    client: httpx.AsyncClient, account: StaffAccount, *, password: str | None = None
) -> httpx.Response:
    return await client.post(
        "/api/backoffice/auth/login",
        json={"login": account.login, "password": password or account.password},
    )


async def log_in(client: httpx.AsyncClient, account: StaffAccount) -> str:
    """Both login steps through the API (enrolling on the first login); returns the token."""
    first = await password_step(client, account)
    assert first.status_code == 200, first.text
    second = await client.post(
        "/api/backoffice/auth/totp",
        json={"ticket": first.json()["ticket"], "code": code_now(account)},
    )
    assert second.status_code == 200, second.text
    token: str = second.json()["token"]
    return token


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
