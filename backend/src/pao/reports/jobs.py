"""The background refresh of the report summaries: every few seconds, in every process; a
process that finds another one refreshing skips its turn (``SKIP LOCKED`` on the watermark)."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from pao.kit.jobs import PeriodicJob
from pao.reports.refresh import refresh
from pao.site.settings import load_site_settings

INTERVAL_SECONDS = 5.0
# Entries a tick summarises at most (40 batches): a long catch-up commits as it goes.
MAX_STEPS = 40


async def refresh_tick(app: Any) -> int:
    async with app.state.sessionmaker() as session:
        site = await load_site_settings(session)
        done = await refresh(session, zone=ZoneInfo(site.timezone), wait=False, max_steps=MAX_STEPS)
        await session.commit()
    return done


def register(app: Any) -> None:
    # Routine: under traffic every tick summarises new entries; its ticks are logged at debug.
    app.state.jobs.append(
        PeriodicJob("report-summaries", INTERVAL_SECONDS, refresh_tick, routine=True)
    )
