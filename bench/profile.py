"""py-spy helpers: record a worker while a load runs, and summarise the collapsed stacks into
the functions that take the most time (inclusive), for the "profile" part of the report."""

from __future__ import annotations

import collections
import collections.abc
import re
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import VENV_BIN, WORK_DIR, log


def record(pids: list[int], seconds: float, name: str, load: Callable[[], Any]) -> Path:
    """Sample each of ``pids`` with py-spy (100 Hz, idle frames excluded) while ``load`` runs;
    the recording of the one with the most samples (the kernel may hand one worker every
    connection of a round, and which one is not known before it)."""
    WORK_DIR.mkdir(parents=True, exist_ok=True)
    outs = [WORK_DIR / f"profile-{name}-{pid}.txt" for pid in pids]
    spies = [
        subprocess.Popen(
            [
                str(VENV_BIN / "py-spy"),
                "record",
                "--pid",
                str(pid),
                "--duration",
                str(int(seconds)),
                "--rate",
                "100",
                "--format",
                "raw",
                "--output",
                str(out),
                "--nonblocking",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for pid, out in zip(pids, outs, strict=True)
    ]
    runner = threading.Thread(target=load)
    runner.start()
    runner.join()
    for spy in spies:
        spy.wait(timeout=seconds + 30)
    out = max(
        outs,
        key=lambda path: (
            sum(count for _, count in _stacks(path)) if path.exists() else 0
        ),
    )
    log(f"profile of {name}: {out}")
    return out


def _stacks(path: Path) -> collections.abc.Iterator[tuple[list[str], int]]:
    """Each recorded stack (outermost frame first, one name per function, not per line:
    "f (path:12)" → "f (path)") and its sample count."""
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if stack:
            yield (
                [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")],
                int(count_text),
            )


def _shares(
    counter: collections.Counter[str], total: int, limit: int
) -> list[tuple[float, str]]:
    return (
        [(100 * n / total, frame) for frame, n in counter.most_common(limit)]
        if total
        else []
    )


def top(path: Path, *, limit: int = 25, needle: str = "") -> list[tuple[float, str]]:
    """Inclusive share of samples per function (``needle`` filters, e.g. 'pao/')."""
    inclusive: collections.Counter[str] = collections.Counter()
    total = 0
    for frames, count in _stacks(path):
        total += count
        for frame in {f for f in frames if not needle or needle in f}:
            inclusive[frame] += count
    return _shares(inclusive, total, limit)


def self_top(path: Path, *, limit: int = 15) -> list[tuple[float, str]]:
    """Share of samples per innermost function (where the CPU is spent, not what called it)."""
    own: collections.Counter[str] = collections.Counter()
    total = 0
    for frames, count in _stacks(path):
        total += count
        own[frames[-1]] += count
    return _shares(own, total, limit)
