"""Puts the chat into the app: the socket.io server at ``/socket.io`` and its presence job,
and the LINE channel (its routes always; its jobs when LINE is configured)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from pao.core.settings import Settings
from pao.kit.jobs import PeriodicJob
from pao.support.agents import AgentDirectory
from pao.support.line.router import router as line_router
from pao.support.router import router
from pao.support.socket import PRESENCE_REFRESH_SECONDS, ChatHub

LINE_TICK_SECONDS = 5.0


async def refresh_presence(app: Any) -> int:
    hub: ChatHub = app.state.chat
    return await hub.presence.refresh()


def install(app: FastAPI, settings: Settings, *, agents: AgentDirectory) -> None:
    """Call before the SPA's catch-all route is added: the mount must be matched first.

    ``agents``: where the chat finds the operators answering it (the back office's staff)."""
    hub = ChatHub(settings, app.state.sessionmaker, agents)
    app.state.chat = hub
    app.include_router(router)
    # The engine.io app matches its own full path (/socket.io/...); Starlette passes the
    # unstripped path to mounted apps, so the socketio_path stays "socket.io".
    app.mount("/socket.io", hub.asgi_app(), name="socket.io")
    # Routine: every tick renews the presence of each agent online (logged at debug).
    app.state.jobs.append(
        PeriodicJob("chat-agent-presence", PRESENCE_REFRESH_SECONDS, refresh_presence, routine=True)
    )
    app.include_router(line_router)
    if settings.line_enabled:
        # Imported here, at start-up, with LINE configured: the SDK behind them is heavy, and
        # unconfigured processes never load it (pao.support.line.outbound).
        from pao.support.line import inbound as line_inbound
        from pao.support.line import outbound as line_outbound

        # What the webhook's after-answer task and the sends after a commit did not finish
        # (a crash, a failure waiting for its retry): pao.support.line.inbound / .outbound.
        app.state.jobs.append(
            PeriodicJob("line-events", LINE_TICK_SECONDS, line_inbound.events_tick)
        )
        app.state.jobs.append(
            PeriodicJob("line-outbox", LINE_TICK_SECONDS, line_outbound.outbox_tick)
        )
