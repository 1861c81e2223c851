"""A spin racing an edit of the wheel draws from one set of slices: the edit waits for a spin in
progress (the spin holds the wheel's row shared, the edit exclusively), so the spin's draw and
its answer's index are counted in the slices it read, and the edit lands after it."""

from __future__ import annotations

import asyncio

import pytest
from fastapi import FastAPI

from pao.promotions import wheel, wheel_editor
from pao.promotions.models import PrizeType
from pao.promotions.wheel_editor import SliceIn
from tests.promotions_helpers import add_wheel

# Also on SQLite (tests/databases.py): a wheel edit racing a spin under SQLite's write lock.
pytestmark = pytest.mark.sqlite


def _slice(weight: int, id: int | None = None) -> SliceIn:
    return SliceIn(
        id=id,
        label={"th": "ก", "la": "ກ", "en": "a"},
        bg_color="#000",
        text_color="#fff",
        weight=weight,
        prize_type=PrizeType.NONE,
        prize_amount=0,
    )


async def test_an_edit_waits_for_the_spin_in_progress(app: FastAPI) -> None:
    created = await add_wheel(app)
    async with app.state.sessionmaker() as spinning:
        await wheel.hold_for_spin(spinning, wheel_id=created.id)
        seen = [s.code for s in await wheel.slices_of(spinning, wheel_id=created.id)]

        async def edit() -> None:
            async with app.state.sessionmaker() as editing:
                await wheel_editor.save_wheel(
                    editing,
                    name={"th": "ว", "la": "ວ", "en": "W"},
                    slices=[_slice(1), _slice(1)],
                    coin_rules=None,
                    actor="test",
                )
                await editing.commit()

        task = asyncio.create_task(edit())
        await asyncio.sleep(0.5)
        # The spin's transaction still sees, and may still draw from, the slices it read.
        assert not task.done()
        assert [s.code for s in await wheel.slices_of(spinning, wheel_id=created.id)] == seen
        await spinning.commit()
    await asyncio.wait_for(task, timeout=10)
    async with app.state.sessionmaker() as after:
        codes = [s.code for s in await wheel.slices_of(after, wheel_id=created.id)]
    assert len(codes) == 2
    assert not set(codes) & set(seen)
