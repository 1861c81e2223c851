"""Puts the back office into the app: its routers under ``/api/backoffice``, the staff as
the chat's agents, and the staff rooms of the socket server (live queue events)."""

from __future__ import annotations

from datetime import timedelta

from fastapi import FastAPI

from pao.backoffice.accounts import routes as accounts_routes
from pao.backoffice.adjustments import routes as adjustments_routes
from pao.backoffice.audit import routes as audit_routes
from pao.backoffice.chat import routes as chat_routes
from pao.backoffice.chat.agents import StaffAgents
from pao.backoffice.content import routes as content_routes
from pao.backoffice.dashboard import routes as dashboard_routes
from pao.backoffice.deposits import routes as deposits_routes
from pao.backoffice.login import routes as login_routes
from pao.backoffice.members import actions as member_actions
from pao.backoffice.members import protection as member_protection
from pao.backoffice.members import routes as member_routes
from pao.backoffice.members import seamless as member_seamless
from pao.backoffice.members import sensitive as member_sensitive
from pao.backoffice.promotions import routes as promotions_routes
from pao.backoffice.providers import routes as providers_routes
from pao.backoffice.reports import routes as report_routes
from pao.backoffice.reports import seamless as report_seamless
from pao.backoffice.sessions import routes as sessions_routes
from pao.backoffice.settings import routes as settings_routes
from pao.backoffice.staff import rooms as staff_rooms
from pao.backoffice.staff import routes as staff_routes
from pao.backoffice.wheel import routes as wheel_routes
from pao.backoffice.withdrawals import live as withdrawals_live
from pao.backoffice.withdrawals import routes as withdrawals_routes
from pao.core.settings import Settings
from pao.support.socket import ChatHub

ROUTERS = (
    login_routes.router,
    sessions_routes.router,
    staff_routes.router,
    audit_routes.router,
    dashboard_routes.router,
    report_routes.router,
    report_seamless.router,
    member_routes.router,
    member_sensitive.router,
    member_seamless.router,
    member_protection.router,
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
