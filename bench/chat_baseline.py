"""The chat's baseline: a bare python-socketio server (no Pao, no database, no Redis) with the
same two events the bench needs — ``join`` (enter a room) and ``say`` (emit ``messaging`` to a
room) — served by uvicorn like the app. Run: ``uvicorn bench.chat_baseline:app``."""

from __future__ import annotations

from typing import Any

import socketio

sio = socketio.AsyncServer(async_mode="asgi", cors_allowed_origins=None)
app = socketio.ASGIApp(sio, socketio_path="socket.io")


@sio.on("join")  # type: ignore[misc]
async def join(sid: str, room: Any = None) -> dict[str, Any]:
    await sio.enter_room(sid, str(room))
    return {"ok": True}


@sio.on("say")  # type: ignore[misc]
async def say(sid: str, data: Any = None) -> None:
    if isinstance(data, dict):
        await sio.emit(
            "messaging", {"clientId": data.get("clientId")}, to=str(data.get("room"))
        )
