"""The clock. Everything asks here for "now", so tests can move time without sleeping."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class Clock:
    def __init__(self) -> None:
        self._offset = timedelta()

    def now(self) -> datetime:
        return datetime.now(UTC) + self._offset

    def advance(self, delta: timedelta) -> None:
        """Test hook: jump forward in time."""
        self._offset += delta

    def reset(self) -> None:
        self._offset = timedelta()


clock = Clock()


def utcnow() -> datetime:
    return clock.now()
