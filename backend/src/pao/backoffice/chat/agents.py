"""The chat's agents are staff: :class:`StaffAgents` is the back office's side of
:class:`pao.support.agents.AgentDirectory`, handed to the chat when the app is wired.

A staff session token is an agent token when the session is live and the role holds
``chat.use``; the agent's id is the staff id (what ``chat_messages.agent_id`` stores). A
conversation may be assigned to an active staff member whose role holds ``chat.use``.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.models import Staff
from pao.backoffice.sessions import service as sessions
from pao.backoffice.staff.roles import GRANTS, Permission, may
from pao.support.agents import Agent


class StaffAgents:
    def __init__(self, *, idle: timedelta) -> None:
        self.idle = idle

    async def agent_for_token(self, session: AsyncSession, token: str) -> Agent | None:
        found = await sessions.resolve(session, token, idle=self.idle)
        if found is None:
            return None
        _, staff = found
        if not may(staff.role, Permission.CHAT_USE):
            return None
        return _agent(staff)

    async def display_names(self, session: AsyncSession, ids: Collection[int]) -> dict[int, str]:
        rows = await session.execute(
            select(Staff.id, Staff.display_name).where(Staff.id.in_(list(ids)))
        )
        return {int(row[0]): str(row[1]) for row in rows}

    async def assignable(self, session: AsyncSession, agent_id: int) -> Agent | None:
        staff = await session.get(Staff, agent_id)
        if staff is None or not staff.active or not may(staff.role, Permission.CHAT_USE):
            return None
        return _agent(staff)

    async def all_assignable(self, session: AsyncSession) -> list[Agent]:
        roles = [role.value for role in GRANTS[Permission.CHAT_USE]]
        rows = await session.execute(
            select(Staff)
            .where(Staff.disabled_at.is_(None), Staff.role.in_(roles))
            .order_by(Staff.display_name, Staff.id)
        )
        return [_agent(staff) for staff in rows.scalars()]


def _agent(staff: Staff) -> Agent:
    return Agent(id=staff.id, login=staff.login, display_name=staff.display_name)
