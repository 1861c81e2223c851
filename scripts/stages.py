"""``make test``'s driver: runs each stage (a make target) in order, times it, and prints a
table of the stages' times at the end, so that the suite's growth shows at once.

It stops at the first failing stage (the table then shows where) and exits with its status.
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


def table(rows: list[tuple[str, float, str]]) -> str:
    width = max(len(name) for name, _, _ in rows)
    total = sum(seconds for _, seconds, _ in rows)
    lines = ["", "stage times", "-" * (width + 22)]
    lines += [f"{name:<{width}}  {seconds:8.1f} s  {result}" for name, seconds, result in rows]
    lines += ["-" * (width + 22), f"{'total':<{width}}  {total:8.1f} s  ({total / 60:.1f} min)"]
    return "\n".join(lines)


def main(stages: list[str]) -> int:
    make = os.environ.get("MAKE", "make")
    rows: list[tuple[str, float, str]] = []
    status = 0
    for stage in stages:
        name, targets = parse(stage)
        print(f"\n=== stage: {name} ({' '.join(targets)})", flush=True)
        started = time.monotonic()
        # The targets are the Makefile's own stage list, not outside input.
        status = subprocess.call([make, "--no-print-directory", *targets])  # noqa: S603
        result = "ok" if status == 0 else f"FAILED ({status})"
        rows.append((name, time.monotonic() - started, result))
        if status != 0:
            break
    print(table(rows), flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
