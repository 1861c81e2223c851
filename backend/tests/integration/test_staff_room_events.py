"""pao.backoffice.staff.rooms.emit_after_commit with a real session and a fake hub: committed
items join one batch, rolled-back ones never leave, and the hub's closing sends what waits
(the chat hub awaits its before-close callbacks)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from pao.backoffice.staff import rooms as staff_rooms
from pao.core.db import create_engine, create_sessionmaker
from pao.core.settings import Settings
from pao.support.agents import AgentDirectory
from pao.support.socket import ChatHub


class FakeHub:
    """What staff_rooms needs of a ChatHub: emits recorded, close callbacks kept."""

    def __init__(self) -> None:
        self.emitted: list[tuple[str, str, Any]] = []
        self.closing: list[Callable[[], Awaitable[None]]] = []

    def before_close(self, callback: Callable[[], Awaitable[None]]) -> None:
        self.closing.append(callback)

    async def emit_to_room(self, event: str, data: Any, *, room: str) -> None:
        self.emitted.append((room, event, data))

    async def close(self) -> None:
        for callback in self.closing:
            await callback()


@pytest.fixture
async def engine(settings: Settings) -> AsyncIterator[AsyncEngine]:
    engine = create_engine(settings)
    try:
        yield engine
    finally:
        await engine.dispose()


async def test_committed_items_leave_as_one_batch_at_close_and_rolled_back_ones_never(
    engine: AsyncEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A window longer than the test: only the hub's closing can send the batch.
    monkeypatch.setattr(staff_rooms, "BATCH_WINDOW_SECONDS", 60.0)
    hub = FakeHub()
    staff_rooms.attach(engine.sync_engine.pool, cast(ChatHub, hub))
    sessions = create_sessionmaker(engine)
    async with sessions() as session:
        await session.execute(text("SELECT 1"))
        staff_rooms.emit_after_commit(session, "e", "new", {"id": 1}, room="r")
        await session.rollback()
        await session.execute(text("SELECT 1"))
        staff_rooms.emit_after_commit(session, "e", "new", {"id": 2}, room="r")
        staff_rooms.emit_after_commit(session, "e", "updated", {"id": 2, "s": "X"}, room="r")
        assert hub.emitted == []
        await session.commit()
    async with sessions() as session:
        await session.execute(text("SELECT 1"))
        staff_rooms.emit_after_commit(session, "e", "new", {"id": 3}, room="r")
        await session.commit()
    assert hub.emitted == []  # waiting for the window
    await hub.close()
    assert hub.emitted == [
        ("r", "e", {"new": [{"id": 2}, {"id": 3}], "updated": [{"id": 2, "s": "X"}]})
    ]


async def test_a_pool_without_a_hub_emits_nothing(engine: AsyncEngine) -> None:
    # pao ops: no socket server was attached to this pool.
    async with create_sessionmaker(engine)() as session:
        await session.execute(text("SELECT 1"))
        staff_rooms.emit_after_commit(session, "e", "new", {"id": 1}, room="r")
        assert session.info == {}
        await session.commit()


async def test_the_chat_hub_awaits_its_before_close_callbacks(
    settings: Settings, engine: AsyncEngine
) -> None:
    hub = ChatHub(settings, create_sessionmaker(engine), cast(AgentDirectory, None))
    flushed: list[str] = []

    async def flush() -> None:
        flushed.append("flushed")

    hub.before_close(flush)
    await hub.close()
    assert flushed == ["flushed"]
