"""Reads a `make test` log and prints one closing line: "ci: N passed, N failed".

CI judges a run by its last lines, and the last runner in `make test` is Playwright, whose
summary ("76 passed (8.4m)") no judge reads. This adds up the summaries of every runner that
ran (pytest, vitest, Playwright) so the closing line counts all of them.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# pytest: "1234 passed, 3 skipped in 612.03s (0:10:12)", framed by "=" without -q
PYTEST = re.compile(r"^=* ?(?P<body>\d+ (?:passed|failed|errors?)(?:, \d+ [a-z]+)*) in [\d.]+s")
# vitest: "      Tests  85 passed (85)" or "Tests  2 failed | 83 passed (85)"
VITEST = re.compile(r"^\s*Tests\s+(?P<body>.*)\(\d+\)\s*$")
# Playwright: "  76 passed (8.4m)", "  2 failed", "  1 flaky"
PLAYWRIGHT = re.compile(r"^\s+(?P<n>\d+) (?P<what>passed|failed|flaky) \([\d.]+[a-z]+\)\s*$|"
                        r"^\s+(?P<n2>\d+) (?P<what2>failed|flaky)\s*$")
COUNT = re.compile(r"(\d+) (passed|failed|errors?)")


def main(log_path: str) -> int:
    passed = failed = 0
    for raw in Path(log_path).read_text(errors="replace").splitlines():
        line = ANSI.sub("", raw)
        body = None
        if m := PYTEST.match(line):
            body = m["body"]
        elif m := VITEST.match(line):
            body = m["body"]
        if body is not None:
            for n, what in COUNT.findall(body):
                if what == "passed":
                    passed += int(n)
                else:
                    failed += int(n)
            continue
        if m := PLAYWRIGHT.match(line):
            n, what = (m["n"], m["what"]) if m["n"] else (m["n2"], m["what2"])
            if what == "failed":
                failed += int(n)
            else:
                passed += int(n)
    if passed or failed:
        print(f"ci: {passed} passed, {failed} failed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
