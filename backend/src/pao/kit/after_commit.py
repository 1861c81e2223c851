"""Run code once a session's work is committed: :func:`after_commit`.

Caches dropped when a setting changes and live events for the back office must happen when
the change is visible to everyone, i.e. when the *outermost* transaction commits, and never
for work that was rolled back. SQLAlchemy's ``after_commit`` event also follows every
savepoint's release, and listening per session costs an ``event.listen`` per request (the
withdrawal's profile showed it; issue 19). So one pair of listeners is registered here, once,
on the :class:`~sqlalchemy.orm.Session` class (class-level listeners apply to every session),
and the callbacks wait in ``session.info`` beside the transaction they belong to:

* the outermost transaction's commit runs them, in the order they were added;
* a savepoint's release runs nothing (nothing is visible to others yet);
* the outermost transaction's rollback drops them;
* a savepoint's rollback drops nothing: callbacks belong to the outermost transaction, so one
  added inside a savepoint that was rolled back still runs at the commit. Its users invalidate
  caches and announce "look again" to the back office, for which one needless run costs a
  re-read, while a missed one can leave a cache holding what the savepoint had written
  (a settings load inside the savepoint caches its values);
* a transaction that ends without a rollback event (the session is closed mid-transaction,
  which returns the connection to the pool and rolls it back there) leaves its callbacks
  behind, tagged with that transaction; a later transaction of the session never runs them.

A callback runs after the data is committed: it cannot undo the commit, so an exception in
it is logged and the remaining callbacks still run.

Work done outside the session, by a statement run alone in autocommit (a withdrawal request:
pao.wallet.withdrawal_statement), is committed when the statement returns: what is published
about it inside :func:`committed_already` runs at once, without beginning a transaction for
nothing to commit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import structlog
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session, SessionTransaction

log = structlog.get_logger(__name__)

# Session.info key: the _Pending of the session's current outermost transaction.
_PENDING = "pao.kit.after_commit"
# Session.info key, set inside committed_already().
_COMMITTED = "pao.kit.after_commit.committed"


class _Pending:
    """The callbacks waiting for one outermost transaction's commit."""

    __slots__ = ("callbacks", "transaction")

    def __init__(self, transaction: SessionTransaction) -> None:
        self.transaction = transaction
        self.callbacks: list[Callable[[], None]] = []


def after_commit(session: AsyncSession, callback: Callable[[], None]) -> None:
    """Run ``callback`` once the outermost transaction ``session`` is in now commits.

    Dropped if that transaction rolls back. A session with no transaction yet begins one
    (SQLAlchemy begins it on first use anyway): the callback waits for that one's commit.
    Each call adds a run: a callback added twice runs twice. Inside :func:`committed_already`
    it runs at once."""
    sync_session = session.sync_session
    if sync_session.info.get(_COMMITTED):
        _run([callback])
        return
    transaction = sync_session.get_transaction() or sync_session.begin()
    pending = sync_session.info.get(_PENDING)
    if pending is None or pending.transaction is not transaction:
        # None yet, or left by an earlier transaction that ended without a rollback event.
        pending = sync_session.info[_PENDING] = _Pending(transaction)
    pending.callbacks.append(callback)


@event.listens_for(Session, "after_commit")
def _run_pending(session: Session) -> None:
    # Also dispatched on a savepoint's release, while that savepoint is still the session's.
    if session.in_nested_transaction():
        return
    pending: _Pending | None = session.info.pop(_PENDING, None)
    # During the dispatch the committing transaction is still the session's own.
    if pending is None or pending.transaction is not session.get_transaction():
        return
    _run(pending.callbacks)


def _run(callbacks: list[Callable[[], None]]) -> None:
    for callback in callbacks:
        try:
            callback()
        except Exception:
            log.exception("after-commit callback failed", callback=repr(callback))


@contextmanager
def committed_already(session: AsyncSession) -> Iterator[None]:
    """Inside, :func:`after_commit` runs its callback at once: the work it follows was
    committed outside ``session``, which must have no transaction of its own open (its
    callbacks would then run before its commit)."""
    if session.in_transaction():
        raise RuntimeError("the session has a transaction of its own: wait for its commit")
    session.sync_session.info[_COMMITTED] = True
    try:
        yield
    finally:
        del session.sync_session.info[_COMMITTED]


@event.listens_for(Session, "after_rollback")
def _drop_pending(session: Session) -> None:
    # A savepoint's rollback is dispatched while it is still the session's nested transaction;
    # the outermost one's comes after any open savepoint was closed.
    if not session.in_nested_transaction():
        session.info.pop(_PENDING, None)
