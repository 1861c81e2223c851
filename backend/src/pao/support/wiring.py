"""Puts the chat into the app: the socket.io server at ``/socket.io`` and its presence job."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

from pao.core.settings import Settings
from pao.kit.jobs import PeriodicJob
from pao.support.agents import AgentDirectory
from pao.support.router import router
from pao.support.socket import PRESENCE_REFRESH_SECONDS, ChatHub


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
