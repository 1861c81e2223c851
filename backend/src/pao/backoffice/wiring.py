"""Puts the back office into the app: its routers under ``/api/backoffice``, and the staff as
the chat's agents."""

from __future__ import annotations

from datetime import timedelta

from fastapi import FastAPI

from pao.backoffice import audit_routes, auth_routes, chat_routes, staff_routes
from pao.backoffice.chat_agents import StaffAgents
from pao.backoffice.members import actions as member_actions
from pao.backoffice.members import routes as member_routes
from pao.backoffice.members import sensitive as member_sensitive
from pao.core.settings import Settings

ROUTERS = (
    auth_routes.router,
    staff_routes.router,
    audit_routes.router,
    member_routes.router,
    member_sensitive.router,
    member_actions.router,
    chat_routes.router,
)


def chat_agents(settings: Settings) -> StaffAgents:
    """What the chat is wired with (``pao.support.wiring.install(..., agents=...)``)."""
    return StaffAgents(idle=timedelta(minutes=settings.staff_idle_minutes))


def install(app: FastAPI) -> None:
    for router in ROUTERS:
        app.include_router(router)
