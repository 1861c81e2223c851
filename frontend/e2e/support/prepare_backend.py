"""Prepares a browser-test backend's data directory in one process: `pao migrate`, `pao demo`
and the tests' `pao ops settings set …`, each run as its own CLI command would run it.

playwright.config.ts ran them as five `pao` processes per backend, each importing the whole
backend first (seconds of CPU each, three backends at once on a 2-core machine): most of the
minute before the first test. Here the import is paid once.

Usage: python prepare_backend.py 'migrate' 'demo' 'ops settings set key value' …
(each argument one command, split on spaces). Stops at the first command that fails, with its
status, as `a && b && …` did.
"""

from __future__ import annotations

import sys

from pao.cli import app

for command in sys.argv[1:]:
    try:
        result = app(command.split(), prog_name="pao", standalone_mode=False)
    except SystemExit as exc:
        result = exc.code
    status = result if isinstance(result, int) else (0 if result is None else 1)
    if status:
        sys.exit(f"prepare_backend: `pao {command}` failed with status {status}")
