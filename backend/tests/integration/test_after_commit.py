"""pao.kit.after_commit on each database: a callback runs when the outermost transaction
commits, never on a savepoint's release, never for a rolled-back transaction, and once."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
from sqlalchemy import event, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import Session
from structlog.testing import capture_logs

from pao.core.db import create_engine, create_sessionmaker
from pao.core.settings import Settings
from pao.kit import after_commit as after_commit_module
from pao.kit.after_commit import after_commit

SELECT_1 = text("SELECT 1")


@pytest.fixture
async def sessions(settings: Settings) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = create_engine(settings)
    try:
        yield create_sessionmaker(engine)
    finally:
        await engine.dispose()


class Runs:
    """Records which callbacks ran, in order."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def __call__(self, name: str) -> Callable[[], None]:
        return lambda: self.ran.append(name)


async def test_the_commit_runs_each_callback_once_in_order(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    runs = Runs()
    async with sessions() as session:
        await session.execute(SELECT_1)
        after_commit(session, runs("first"))
        after_commit(session, runs("second"))
        after_commit(session, runs("first"))
        await session.flush()
        assert runs.ran == []
        await session.commit()
        assert runs.ran == ["first", "second", "first"]
        # Spent: the session's next commit runs nothing again.
        await session.execute(SELECT_1)
        await session.commit()
    assert runs.ran == ["first", "second", "first"]


async def test_a_session_without_a_transaction_yet_waits_for_its_first_commit(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    runs = Runs()
    async with sessions() as session:
        after_commit(session, runs("early"))
        await session.execute(SELECT_1)
        assert runs.ran == []
        await session.commit()
    assert runs.ran == ["early"]


async def test_a_rollback_drops_the_callbacks_for_good(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    runs = Runs()
    async with sessions() as session:
        await session.execute(SELECT_1)
        after_commit(session, runs("undone"))
        await session.rollback()
        await session.execute(SELECT_1)
        await session.commit()
    assert runs.ran == []


async def test_a_savepoints_release_is_not_the_commit(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    runs = Runs()
    async with sessions() as session:
        await session.execute(SELECT_1)
        after_commit(session, runs("outer"))
        async with session.begin_nested():
            after_commit(session, runs("inner"))
            async with session.begin_nested():
                after_commit(session, runs("innermost"))
                await session.execute(SELECT_1)
            assert runs.ran == []
        assert runs.ran == []
        await session.commit()
    assert runs.ran == ["outer", "inner", "innermost"]


async def test_a_savepoints_rollback_keeps_its_callbacks_for_the_outer_commit(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    # The module's choice: callbacks belong to the outermost transaction (a needless cache
    # drop costs a re-read; a missed one would keep what the savepoint had cached).
    runs = Runs()
    async with sessions() as session:
        await session.execute(SELECT_1)
        after_commit(session, runs("before"))
        savepoint = await session.begin_nested()
        after_commit(session, runs("in the savepoint"))
        await session.execute(SELECT_1)
        await savepoint.rollback()
        after_commit(session, runs("after"))
        await session.commit()
    assert runs.ran == ["before", "in the savepoint", "after"]


async def test_an_outer_rollback_with_a_savepoint_open_drops_everything(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    runs = Runs()
    async with sessions() as session:
        await session.execute(SELECT_1)
        after_commit(session, runs("outer"))
        await session.begin_nested()
        after_commit(session, runs("inner"))
        await session.execute(SELECT_1)
        await session.rollback()
        await session.execute(SELECT_1)
        await session.commit()
    assert runs.ran == []


async def test_each_transaction_of_a_session_runs_its_own(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    runs = Runs()
    async with sessions() as session:
        await session.execute(SELECT_1)
        after_commit(session, runs("one"))
        await session.commit()
        await session.execute(SELECT_1)
        after_commit(session, runs("rolled back"))
        await session.rollback()
        await session.execute(SELECT_1)
        after_commit(session, runs("three"))
        await session.commit()
    assert runs.ran == ["one", "three"]


async def test_a_transaction_closed_without_a_rollback_never_runs_later(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    # close() returns the connection to the pool, which rolls it back there: no after_rollback.
    runs = Runs()
    session = sessions()
    await session.execute(SELECT_1)
    after_commit(session, runs("abandoned"))
    await session.close()
    await session.execute(SELECT_1)
    await session.commit()
    assert runs.ran == []
    after_commit(session, runs("next"))
    await session.commit()
    await session.close()
    assert runs.ran == ["next"]


async def test_a_failing_callback_is_logged_and_the_others_still_run(
    sessions: async_sessionmaker[AsyncSession],
) -> None:
    runs = Runs()

    def fails() -> None:
        raise RuntimeError("boom")

    async with sessions() as session:
        await session.execute(SELECT_1)
        after_commit(session, fails)
        after_commit(session, runs("after it"))
        with capture_logs() as logs:
            await session.commit()  # the commit itself does not fail
    assert runs.ran == ["after it"]
    assert [entry["event"] for entry in logs] == ["after-commit callback failed"]


def test_the_listeners_are_the_sessions_class_not_each_session() -> None:
    # Registered once at import; a session pays no event.listen of its own.
    assert event.contains(Session, "after_commit", after_commit_module._run_pending)
    assert event.contains(Session, "after_rollback", after_commit_module._drop_pending)
