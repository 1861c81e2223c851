"""The per-process cache of provider availability (ADR 0013, amendment), on SQLite and
PostgreSQL, on an injected clock (no sleeps):

* a change made elsewhere (another process: a row written without this process knowing) is
  seen once the cache is ``CACHE_SECONDS`` old, not before, and a cached answer sends no
  statement;
* a maintenance set or ended in this process is seen at once, once its transaction commits
  (the back office's route included: the next transfer is refused at once);
* a circuit this process's tracker opens is seen at once.
"""

from __future__ import annotations

from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import delete

from pao.backoffice.audit.service import Actor
from pao.backoffice.providers import service as providers_service
from pao.backoffice.staff.roles import Role
from pao.core import executor
from pao.games import availability
from pao.games.availability import AvailabilityCache, ProviderState, ensure_available
from pao.games.exceptions import ProviderDown
from pao.games.health import CallOutcome, tracker_of
from pao.games.models import ProviderMaintenance
from pao.kit.clock import utcnow
from tests.games_support import activate, funded_member, seed, transfer_headers
from tests.staff_helpers import add_staff, bearer, open_token


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _frozen(app: FastAPI) -> _Clock:
    """The app's availability cache on a clock that moves only when told."""
    clock = _Clock()
    app.state.provider_availability = AvailabilityCache(clock=clock)
    return clock


async def _state(app: FastAPI, code: str) -> ProviderState:
    async with app.state.sessionmaker() as session:
        return (await availability.screen_statuses(app, session))[code].state


async def _elsewhere_on(app: FastAPI, code: str) -> None:
    """A maintenance written as another process would: no change seen by this one."""
    async with app.state.sessionmaker() as session:
        session.add(
            ProviderMaintenance(
                game_code=code, reason="elsewhere", until=None, set_by="t", set_at=utcnow()
            )
        )
        await session.commit()


async def test_another_process_change_is_seen_within_the_bound_and_not_read_before(
    app: FastAPI,
) -> None:
    await seed(app)
    clock = _frozen(app)
    assert await _state(app, "JOKER") == ProviderState.OK
    await _elsewhere_on(app, "JOKER")

    clock.now += availability.CACHE_SECONDS * 0.9
    with executor.recorded(app.state.engine) as sent:
        assert await _state(app, "JOKER") == ProviderState.OK  # stale, within the bound
        async with app.state.sessionmaker() as session:
            await ensure_available(app, session, ["JOKER"])
    assert sent == []  # answered from the cache

    clock.now += availability.CACHE_SECONDS * 0.1
    assert await _state(app, "JOKER") == ProviderState.MAINTENANCE
    async with app.state.sessionmaker() as session:
        await session.execute(delete(ProviderMaintenance))
        await session.commit()
    assert await _state(app, "JOKER") == ProviderState.MAINTENANCE  # cached again
    clock.now += availability.CACHE_SECONDS
    assert await _state(app, "JOKER") == ProviderState.OK


async def test_a_maintenance_changed_in_this_process_is_seen_once_committed(
    app: FastAPI,
) -> None:
    await seed(app)
    _frozen(app)
    assert await _state(app, "PG") == ProviderState.OK
    async with app.state.sessionmaker() as session:
        await providers_service.turn_on(
            session, code="PG", reason="upgrade", until=None, actor=Actor.operator("t")
        )
        await session.commit()
    assert await _state(app, "PG") == ProviderState.MAINTENANCE  # the clock did not move

    async with app.state.sessionmaker() as session:
        await providers_service.turn_off(session, code="PG", actor=Actor.operator("t"))
        await session.rollback()
    assert await _state(app, "PG") == ProviderState.MAINTENANCE
    async with app.state.sessionmaker() as session:
        await providers_service.turn_off(session, code="PG", actor=Actor.operator("t"))
        await session.commit()
    assert await _state(app, "PG") == ProviderState.OK


async def test_the_back_office_toggle_refuses_the_next_transfer_at_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)
    _frozen(app)
    token, _ = await funded_member(client, 10_00)
    await activate(client, token, "JOKER")
    manager = await open_token(app, await add_staff(app, role=Role.MANAGER))

    async def transfer() -> httpx.Response:
        return await client.post(
            "/api/wallet/transfer",
            json={"from": "WALLET", "to": "JOKER", "amount": 1},
            headers=transfer_headers(token, None),
        )

    assert (await transfer()).status_code == 200
    until = (utcnow() + timedelta(hours=1)).isoformat()
    on = await client.put(
        "/api/backoffice/providers/JOKER/maintenance",
        headers=bearer(manager),
        json={"reason": "upgrade", "until": until},
    )
    assert on.status_code == 200, on.text
    refused = await transfer()
    assert (refused.status_code, refused.json()) == (400, {"message": "PROVIDER_MAINTENANCE"})
    off = await client.delete(
        "/api/backoffice/providers/JOKER/maintenance", headers=bearer(manager)
    )
    assert off.status_code == 200
    assert (await transfer()).status_code == 200


async def test_a_circuit_opened_by_this_process_is_seen_at_once(app: FastAPI) -> None:
    await seed(app)
    _frozen(app)
    async with app.state.sessionmaker() as session:
        await ensure_available(app, session, ["PG"])
    tracker = tracker_of(app)
    for _ in range(tracker.policy.min_calls):
        await tracker.record("PG", CallOutcome.FAILED, error="HTTP_503")
    assert (await tracker.health(["PG"]))["PG"].down
    async with app.state.sessionmaker() as session:
        with pytest.raises(ProviderDown):
            await ensure_available(app, session, ["PG", "JOKER"])
    await tracker.reset("PG")
    assert await _state(app, "PG") == ProviderState.OK


async def test_a_maintenance_is_over_at_its_planned_end_though_the_states_are_cached(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The states are made once per snapshot and shared by every wallet screen, until the first
    planned end of a maintenance still on: then they are made again, without a read."""
    await seed(app)
    _frozen(app)
    end = utcnow() + timedelta(minutes=5)
    async with app.state.sessionmaker() as session:
        await providers_service.turn_on(
            session, code="PG", reason="upgrade", until=end, actor=Actor.operator("t")
        )
        await session.commit()
    async with app.state.sessionmaker() as session:
        first = await availability.screen_statuses(app, session)
        assert await availability.screen_statuses(app, session) is first  # made once
    assert first["PG"].state == ProviderState.MAINTENANCE

    monkeypatch.setattr(availability, "utcnow", lambda: end)
    with executor.recorded(app.state.engine) as sent:
        assert await _state(app, "PG") == ProviderState.OK
    assert sent == []  # the same snapshot: no statement
