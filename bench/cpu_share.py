"""Where a benchmark round's CPU goes: the database's, Redis's, the load generator's.

PostgreSQL, Redis, the load generator and Pao share this machine's two cores. Once they are
busy, a money path's ratio to pgbench is the ratio of what each side spends per transaction *in
all*: pgbench's C client spends a sliver beside the database, a Python server several times
what the database does. Metering every side of each round separates the two questions that one
ratio mixes:

* does a Pao request make the **database** work more than pgbench's transaction of the same
  SQL does? That is what no number of application servers buys back;
* how much **application** CPU does a request cost beside it? That is what more workers on
  cores of their own buy back (ARCHITECTURE.md, scale-out).

The server's own CPU is metered by :meth:`bench.common.Server.cpu_seconds`; this module meters
the rest, by process: every process named ``postgres`` (the postmaster, its backends and
helpers) and ``redis-server``, each with the CPU of its exited children, so a backend whose
connection closed during the round still counts; and this process's waited children (wrk,
pgbench, the Python driver's workers), which is where every load generator runs.
"""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")
DATABASE = frozenset({"postgres"})
REDIS = frozenset({"redis-server"})


def _named_cpu_seconds(names: frozenset[str]) -> float:
    """utime + stime + cutime + cstime of every process whose command name is in ``names``.

    A child's time moves into its parent's cutime when it is reaped: summing both over the
    living processes counts each second once, whether the child is still alive or not."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # the process ended between the listing and the read
            continue
        name_end = text.rindex(")")
        if text[text.index("(") + 1 : name_end] not in names:
            continue
        # After the name: state is field 3, utime … cstime are fields 14–17.
        fields = text[name_end + 2 :].split()
        ticks += sum(int(value) for value in fields[11:15])
    return ticks / _TICKS


def _children_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@dataclass(frozen=True)
class Reading:
    """CPU seconds used so far, per side."""

    database: float
    redis: float
    load: float

    def __sub__(self, earlier: Reading) -> Reading:
        return Reading(
            self.database - earlier.database,
            self.redis - earlier.redis,
            self.load - earlier.load,
        )


def read() -> Reading:
    return Reading(
        _named_cpu_seconds(DATABASE), _named_cpu_seconds(REDIS), _children_cpu_seconds()
    )


def per_transaction(used: Reading, count: int) -> dict[str, float]:
    """CPU milliseconds per transaction (or request), per side."""
    if count <= 0:
        return {}
    return {
        "db_ms": 1000 * used.database / count,
        "redis_ms": 1000 * used.redis / count,
        "load_ms": 1000 * used.load / count,
    }
