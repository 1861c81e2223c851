"""``make test``'s driver: runs each stage (make targets), times it, and prints a table of the
stages' times at the end, so that the suite's growth shows at once.

Each stage is ``name: target…``. A stage written ``&name: target…`` runs in the background,
beside the stages that follow it: consecutive ``&`` stages form one lane, run in their order.
A background lane's output is kept and printed whole once the run is over (interleaved lines
would garble both, and CI reads the runners' summary lines). The foreground stops at its first
failing stage; a failing background stage stops its own lane. The exit status is the first
failure's, else 0. A stage whose targets are empty for this checkout is left out by the
Makefile, which passes the list.

Beside each stage's time the table shows how many cores the whole machine kept busy meanwhile
(/proc/stat, so the database server and the browsers count too): a stage far below the core
count leaves room to run another beside it; one at the core count does not.

    python3 scripts/stages.py "install: install" "checks: check contract-check" "&fuzz: fuzz" …
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import IO


@dataclass(frozen=True)
class Stage:
    name: str
    targets: list[str]
    background: bool = False


@dataclass
class Row:
    name: str
    seconds: float
    cores: float
    result: str
    beside: bool = False


@dataclass
class Lane:
    """Background stages run one after another in a thread; their output goes to ``log``."""

    stages: list[Stage]
    # Closed by finish(), which reads it back.
    log: IO[str] = field(default_factory=lambda: tempfile.TemporaryFile("w+"))  # noqa: SIM115
    rows: list[Row] = field(default_factory=list)
    status: int = 0
    thread: threading.Thread | None = None

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        for stage in self.stages:
            row = run_stage(stage, out=self.log)
            self.rows.append(row)
            done = f"{row.result}, {row.seconds:.0f} s"
            print(f"=== stage (background) {stage.name}: {done}", flush=True)
            if row.result != "ok":
                self.status = self.status or 1
                break

    def finish(self) -> str:
        if self.thread:
            self.thread.join()
        self.log.seek(0)
        text = self.log.read()
        self.log.close()
        return text


def parse(stage: str) -> Stage:
    name, _, targets = stage.partition(":")
    name = name.strip()
    return Stage(name.lstrip("&").strip(), targets.split(), background=name.startswith("&"))


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


def run_stage(stage: Stage, out: IO[str] | None = None) -> Row:
    make = os.environ.get("MAKE", "make")
    header = f"\n=== stage: {stage.name} ({' '.join(stage.targets)})\n"
    (out or sys.stdout).write(header)
    (out or sys.stdout).flush()
    started, ticks = time.monotonic(), busy_ticks()
    # The targets are the Makefile's own stage list, not outside input.
    status = subprocess.call(  # noqa: S603
        [make, "--no-print-directory", *stage.targets],
        stdout=out,
        stderr=subprocess.STDOUT if out else None,
    )
    result = "ok" if status == 0 else f"FAILED ({status})"
    seconds = time.monotonic() - started
    return Row(stage.name, seconds, cores_busy(ticks, busy_ticks()), result, stage.background)


def table(rows: list[Row], wall: float) -> str:
    width = max(len(row.name) for row in rows) + 2
    rule = "-" * (width + 36)
    lines = ["", f"stage times (cores busy: of {os.cpu_count()}; & ran beside the others)", rule]
    lines += [
        f"{('& ' if row.beside else '') + row.name:<{width}}  {row.seconds:8.1f} s  "
        f"{row.cores:4.1f} cores  {row.result}"
        for row in rows
    ]
    lines += [rule, f"{'total (wall)':<{width}}  {wall:8.1f} s  ({wall / 60:.1f} min)"]
    return "\n".join(lines)


def main(specs: list[str]) -> int:
    stages = [parse(spec) for spec in specs]
    started = time.monotonic()
    rows: list[Row] = []
    lanes: list[Lane] = []
    status = 0
    index = 0
    while index < len(stages):
        stage = stages[index]
        if stage.background:
            lane = Lane([])
            while index < len(stages) and stages[index].background:
                lane.stages.append(stages[index])
                index += 1
            lane.start()
            lanes.append(lane)
            continue
        row = run_stage(stage)
        rows.append(row)
        index += 1
        if row.result != "ok":
            status = 1
            break
    for lane in lanes:
        sys.stdout.write(lane.finish())
        rows.extend(lane.rows)
        status = status or lane.status
    order = {stage.name: position for position, stage in enumerate(stages)}
    rows.sort(key=lambda row: order[row.name])
    print(table(rows, time.monotonic() - started), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
