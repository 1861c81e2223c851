"""The staff rooms' batches (pao.backoffice.staff.rooms.Batches) against a fake hub: the items
of one window leave as one emit per room and event, a later item opens a new window, a failed
emit is logged and lost, and closing sends what waits."""

from __future__ import annotations

import asyncio
from typing import Any, cast

import pytest
from structlog.testing import capture_logs

from pao.backoffice.staff import rooms as staff_rooms
from pao.backoffice.staff.rooms import Batches
from pao.support.socket import ChatHub

WINDOW = 0.05


class FakeHub:
    """Records each emit; fails the ones it is told to."""

    def __init__(self) -> None:
        self.emitted: list[tuple[str, str, Any]] = []
        self.failures = 0

    async def emit_to_room(self, event: str, data: Any, *, room: str) -> None:
        await asyncio.sleep(0)
        if self.failures:
            self.failures -= 1
            raise ConnectionError("redis went away")
        self.emitted.append((room, event, data))


@pytest.fixture
def hub(monkeypatch: pytest.MonkeyPatch) -> FakeHub:
    monkeypatch.setattr(staff_rooms, "BATCH_WINDOW_SECONDS", WINDOW)
    return FakeHub()


def batches_of(hub: FakeHub) -> Batches:
    return Batches(cast(ChatHub, hub))


async def test_one_window_is_one_emit_per_room_and_event(hub: FakeHub) -> None:
    batches = batches_of(hub)
    for n in range(50):
        batches.add("room:a", "things:changed", "new", {"id": n})
    batches.add("room:a", "things:changed", "updated", {"id": 3, "status": "DONE"})
    batches.add("room:b", "things:changed", "new", {"id": 99})
    await asyncio.sleep(WINDOW / 2)
    assert hub.emitted == []
    await asyncio.sleep(WINDOW * 2)
    assert hub.emitted == [
        (
            "room:a",
            "things:changed",
            {"new": [{"id": n} for n in range(50)], "updated": [{"id": 3, "status": "DONE"}]},
        ),
        ("room:b", "things:changed", {"new": [{"id": 99}]}),
    ]


async def test_an_item_after_the_window_opens_the_next_one(hub: FakeHub) -> None:
    batches = batches_of(hub)
    batches.add("room", "e", "new", {"id": 1})
    await asyncio.sleep(WINDOW * 2)
    batches.add("room", "e", "new", {"id": 2})
    batches.add("room", "e", "new", {"id": 3})
    await asyncio.sleep(WINDOW * 2)
    assert [data for _, _, data in hub.emitted] == [
        {"new": [{"id": 1}]},
        {"new": [{"id": 2}, {"id": 3}]},
    ]


async def test_a_failed_emit_is_logged_and_the_next_window_still_goes(hub: FakeHub) -> None:
    batches = batches_of(hub)
    hub.failures = 1
    with capture_logs() as logs:
        batches.add("room", "e", "new", {"id": 1})
        batches.add("room", "e", "new", {"id": 2})
        await asyncio.sleep(WINDOW * 2)
    assert [(entry["event"], entry["items"]) for entry in logs] == [("staff room emit failed", 2)]
    batches.add("room", "e", "new", {"id": 3})
    await asyncio.sleep(WINDOW * 2)
    assert [data for _, _, data in hub.emitted] == [{"new": [{"id": 3}]}]


async def test_closing_sends_what_waits_at_once(hub: FakeHub) -> None:
    batches = batches_of(hub)
    batches.add("room", "e", "new", {"id": 1})
    await batches.flush()
    assert [data for _, _, data in hub.emitted] == [{"new": [{"id": 1}]}]
    # Nothing is left to go when the window would have ended.
    await asyncio.sleep(WINDOW * 2)
    assert len(hub.emitted) == 1
    await batches.flush()  # nothing waiting: nothing sent
    assert len(hub.emitted) == 1


def test_a_caller_without_an_event_loop_sends_nothing(hub: FakeHub) -> None:
    batches = batches_of(hub)
    batches.add("room", "e", "new", {"id": 1})
    asyncio.run(batches.flush())
    assert hub.emitted == []
