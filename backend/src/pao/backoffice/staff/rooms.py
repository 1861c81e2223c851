"""Live back-office events over the chat's socket.io server (shared across processes through
Redis like the chat): staff rooms, and emitting to them after a transaction commits.

* :class:`StaffRoomsOfStaff` is the back office's side of
  :class:`pao.support.socket.StaffRooms`: a socket that connects with ``{"staffToken": …}``
  joins the room of each permission its role holds (:data:`ROOMS`); a member's token is no
  staff session and is refused.
* :func:`emit_after_commit` is for domain event subscribers (:mod:`pao.kit.events` runs them
  inside the publisher's transaction): the item waits on the session and joins its room's
  batch once the outermost transaction commits (:mod:`pao.kit.after_commit`); a rollback
  drops it. Subscribers find their app's batches by the session's database pool (one per
  app; :func:`attach`), so a process without a socket server (``pao ops``) emits nothing.

Batches: the items committed within :data:`BATCH_WINDOW_SECONDS` of the first go out as ONE
socket.io emit per room and event name, whose data is ``{kind: [item, …]}`` (each kind that
occurred, its items in commit order; pao.backoffice.withdrawals.live names the withdrawal
queue's). One emit per item cost about 6 % of a withdrawal's CPU (a Redis publish to every
worker), and made every cashier's browser refetch its queue once per withdrawal: at an
operator's peak of hundreds a second, a refetch storm per cashier. An emit that fails is
logged and not retried: a live event is a convenience, the queue is the truth. When the hub
closes, what waits is sent at once (:meth:`Batches.flush`), while the sockets are still
connected: cashiers on other workers would otherwise miss it; those on this worker reconnect
elsewhere and reload their queue anyway.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from functools import partial
from typing import Any
from weakref import WeakKeyDictionary

import structlog
from sqlalchemy import Engine
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.pool import Pool

from pao.backoffice.sessions import service as sessions
from pao.backoffice.staff.roles import Permission, may
from pao.kit.after_commit import after_commit
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


# How long a room's batch gathers items after its first. A quarter second still reads as
# "live" to a cashier, and folds any rate of withdrawals into at most four emits a second per
# room (and as many queue refreshes per browser, which throttles them further).
BATCH_WINDOW_SECONDS = 0.25

# The batches waiting: (room, event name) -> kind -> items.
_Waiting = dict[tuple[str, str], dict[str, list[dict[str, Any]]]]


class Batches:
    """The items of one hub waiting for their window to end, and the emits in flight."""

    def __init__(self, hub: ChatHub) -> None:
        self.hub = hub
        self._waiting: _Waiting = {}
        self._timer: asyncio.TimerHandle | None = None
        self._sending: set[asyncio.Task[None]] = set()

    def add(self, room: str, event: str, kind: str, item: dict[str, Any]) -> None:
        """Put ``item`` in the batch of ``(room, event)``; the first item opens the window."""
        if self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # a synchronous caller has no loop to send from: nothing to do
                return
            self._timer = loop.call_later(BATCH_WINDOW_SECONDS, self._send_waiting)
        self._waiting.setdefault((room, event), {}).setdefault(kind, []).append(item)

    def _send_waiting(self) -> None:
        self._timer = None
        waiting, self._waiting = self._waiting, {}
        for (room, event), data in waiting.items():
            task = asyncio.get_running_loop().create_task(self._emit(room, event, data))
            self._sending.add(task)  # held until done: the loop keeps only weak references
            task.add_done_callback(self._sending.discard)

    async def _emit(self, room: str, event: str, data: dict[str, list[dict[str, Any]]]) -> None:
        try:
            await self.hub.emit_to_room(event, data, room=room)
        except Exception:  # a live update is a convenience: the queue reloads anyway
            log.exception(
                "staff room emit failed",
                event_name=event,
                items=sum(len(items) for items in data.values()),
            )

    async def flush(self) -> None:
        """Send what waits now and let the emits in flight finish (the hub is closing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._send_waiting()
        if self._sending:
            await asyncio.wait(set(self._sending))


_batches: WeakKeyDictionary[Pool, Batches] = WeakKeyDictionary()


def attach(pool: Pool, hub: ChatHub) -> None:
    """Events published on sessions of ``pool`` go to ``hub`` (called when the app is wired)."""
    batches = Batches(hub)
    _batches[pool] = batches
    hub.before_close(batches.flush)


def _pool_of(session: AsyncSession) -> Pool:
    bind = session.get_bind()
    return bind.pool if isinstance(bind, Engine) else bind.engine.pool


def emit_after_commit(
    session: AsyncSession, event: str, kind: str, item: dict[str, Any], *, room: str
) -> None:
    """``item`` joins the ``kind`` list of ``event``'s next batch for ``room`` once the
    session's outermost transaction commits; a rollback drops it."""
    batches = _batches.get(_pool_of(session))
    if batches is None:
        return
    after_commit(session, partial(batches.add, room, event, kind, item))
