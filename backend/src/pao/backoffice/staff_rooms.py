"""Live back-office events over the chat's socket.io server (shared across processes through
Redis like the chat): staff rooms, and emitting to them after a transaction commits.

* :class:`StaffRoomsOfStaff` is the back office's side of
  :class:`pao.support.socket.StaffRooms`: a socket that connects with ``{"staffToken": …}``
  joins the room of each permission its role holds (:data:`ROOMS`); a member's token is no
  staff session and is refused.
* :func:`emit_after_commit` is for domain event subscribers (:mod:`pao.kit.events` runs them
  inside the publisher's transaction): the event is queued on the session and sent once the
  outermost transaction commits; a rollback drops it. Subscribers find the hub of their
  app by the session's database pool (one per app; :func:`attach`), so a process without a
  socket server (``pao ops``) simply emits nothing.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any
from weakref import WeakKeyDictionary

import structlog
from sqlalchemy import Engine, event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session
from sqlalchemy.pool import Pool

from pao.backoffice import sessions
from pao.backoffice.roles import Permission, may
from pao.support.socket import ChatHub

log = structlog.get_logger(__name__)

WITHDRAWALS_ROOM = "backoffice:withdrawals"
# The staff rooms, each opened by a permission.
ROOMS: dict[Permission, str] = {Permission.WITHDRAWALS_READ: WITHDRAWALS_ROOM}


class StaffRoomsOfStaff:
    def __init__(self, *, idle: timedelta) -> None:
        self.idle = idle

    async def rooms_for_token(self, session: AsyncSession, token: str) -> list[str] | None:
        found = await sessions.resolve(session, token, idle=self.idle, touch=False)
        if found is None:
            return None
        _, staff = found
        return [room for permission, room in ROOMS.items() if may(staff.role, permission)]


_hubs: WeakKeyDictionary[Pool, ChatHub] = WeakKeyDictionary()
_PENDING = "pao.backoffice.staff_rooms.pending"
_tasks: set[asyncio.Task[None]] = set()


def attach(pool: Pool, hub: ChatHub) -> None:
    """Events published on sessions of ``pool`` go to ``hub`` (called when the app is wired)."""
    _hubs[pool] = hub


def _pool_of(session: AsyncSession) -> Pool:
    bind = session.get_bind()
    return bind.pool if isinstance(bind, Engine) else bind.engine.pool


def emit_after_commit(session: AsyncSession, name: str, data: dict[str, Any], *, room: str) -> None:
    hub = _hubs.get(_pool_of(session))
    if hub is None:
        return
    sync_session = session.sync_session
    sync_session.info.setdefault(_PENDING, []).append((hub, name, data, room))
    # One listener per session for all its transactions (see pao.site.settings for why not
    # once=True).
    if not event.contains(sync_session, "after_commit", _send_pending):
        event.listen(sync_session, "after_commit", _send_pending)
        event.listen(sync_session, "after_rollback", _drop_pending)


def _send_pending(session: Session) -> None:
    # after_commit follows a savepoint's release too: only the outermost commit is visible.
    if session.in_nested_transaction():
        return
    pending = session.info.pop(_PENDING, [])
    if not pending:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:  # a synchronous caller has no loop to send from: nothing to do
        return
    for hub, name, data, room in pending:
        task = loop.create_task(_emit(hub, name, data, room))
        _tasks.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(_tasks.discard)


def _drop_pending(session: Session) -> None:
    if not session.in_nested_transaction():
        session.info.pop(_PENDING, None)


async def _emit(hub: ChatHub, name: str, data: dict[str, Any], room: str) -> None:
    try:
        await hub.emit_to_room(name, data, room=room)
    except Exception:  # a live update is a convenience: the queue reloads anyway
        log.exception("staff room emit failed", event_name=name)
