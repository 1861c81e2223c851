"""Puts the back office into the app: its routers under ``/api/backoffice``, the staff as
the chat's agents, and the staff rooms of the socket server (live queue events)."""

from __future__ import annotations

from datetime import timedelta

from fastapi import FastAPI

from pao.backoffice import (
    accounts_routes,
    adjustments_routes,
    audit_routes,
    auth_routes,
    chat_routes,
    content_routes,
    deposits_routes,
    promotions_routes,
    providers_routes,
    settings_routes,
    staff_rooms,
    staff_routes,
    wheel_routes,
)
from pao.backoffice.chat_agents import StaffAgents
from pao.backoffice.dashboard import routes as dashboard_routes
from pao.backoffice.members import actions as member_actions
from pao.backoffice.members import routes as member_routes
from pao.backoffice.members import sensitive as member_sensitive
from pao.backoffice.reports import routes as report_routes
from pao.backoffice.withdrawals import live as withdrawals_live
from pao.backoffice.withdrawals import routes as withdrawals_routes
from pao.core.settings import Settings
from pao.support.socket import ChatHub

ROUTERS = (
    auth_routes.router,
    staff_routes.router,
    audit_routes.router,
    dashboard_routes.router,
    report_routes.router,
    member_routes.router,
    member_sensitive.router,
    member_actions.router,
    withdrawals_routes.router,
    deposits_routes.router,
    adjustments_routes.router,
    accounts_routes.router,
    providers_routes.router,
    promotions_routes.router,
    wheel_routes.router,
    chat_routes.router,
    content_routes.router,
    settings_routes.router,
)
# Imported for their domain event subscribers (registered at import).
SUBSCRIBERS = (withdrawals_live,)


def chat_agents(settings: Settings) -> StaffAgents:
    """What the chat is wired with (``pao.support.wiring.install(..., agents=...)``)."""
    return StaffAgents(idle=timedelta(minutes=settings.staff_idle_minutes))


def install(app: FastAPI) -> None:
    """After the chat (``pao.support.wiring.install``): the staff rooms ride its server."""
    for router in ROUTERS:
        app.include_router(router)
    settings: Settings = app.state.settings
    hub: ChatHub = app.state.chat
    hub.staff_rooms = staff_rooms.StaffRoomsOfStaff(
        idle=timedelta(minutes=settings.staff_idle_minutes)
    )
    staff_rooms.attach(app.state.engine.sync_engine.pool, hub)
