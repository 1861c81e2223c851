"""``make test``'s driver: runs each stage (a make target) in order, times it, and prints a
table of the stages' times at the end, so that the suite's growth shows at once.

It stops at the first failing stage (the table then shows where) and exits with its status.
Beside each stage's time the table shows how many cores the whole machine kept busy meanwhile
(/proc/stat, so the database server and the browsers count too): a stage far below the core
count leaves room to run another beside it; one at the core count does not.
Each stage is ``name: target…``; a stage whose targets are empty for this checkout is left out
by the Makefile, which passes the list.

    python3 scripts/stages.py "install: install" "checks: check contract-check" …
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def parse(stage: str) -> tuple[str, list[str]]:
    name, _, targets = stage.partition(":")
    return name.strip(), targets.split()


def busy_ticks() -> tuple[int, int]:
    """The machine's (busy, all) CPU ticks since boot; (0, 0) where /proc/stat is missing."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
    except OSError:
        return 0, 0
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def cores_busy(before: tuple[int, int], after: tuple[int, int]) -> float:
    """The average number of cores busy between two readings of busy_ticks()."""
    busy, every = after[0] - before[0], after[1] - before[1]
    return busy / every * (os.cpu_count() or 1) if every else 0.0


Row = tuple[str, float, float, str]


def table(rows: list[Row]) -> str:
    width = max(len(name) for name, _, _, _ in rows)
    total = sum(seconds for _, seconds, _, _ in rows)
    rule = "-" * (width + 36)
    lines = ["", f"stage times (cores busy: of {os.cpu_count()})", rule]
    lines += [
        f"{name:<{width}}  {seconds:8.1f} s  {cores:4.1f} cores  {result}"
        for name, seconds, cores, result in rows
    ]
    lines += [rule, f"{'total':<{width}}  {total:8.1f} s  ({total / 60:.1f} min)"]
    return "\n".join(lines)


def main(stages: list[str]) -> int:
    make = os.environ.get("MAKE", "make")
    rows: list[Row] = []
    status = 0
    for stage in stages:
        name, targets = parse(stage)
        print(f"\n=== stage: {name} ({' '.join(targets)})", flush=True)
        started, ticks = time.monotonic(), busy_ticks()
        # The targets are the Makefile's own stage list, not outside input.
        status = subprocess.call([make, "--no-print-directory", *targets])  # noqa: S603
        result = "ok" if status == 0 else f"FAILED ({status})"
        rows.append((name, time.monotonic() - started, cores_busy(ticks, busy_ticks()), result))
        if status != 0:
            break
    print(table(rows), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
