"""The operator CLI kept warm for the browser tests: `pao ops …` in one long-lived process.

Each `pao` command is a new Python process that imports the whole backend first (seconds of
CPU on the CI machine), and the browser tests run dozens of them. playwright.config.ts starts
this server next to each test backend, on its data directory; support/backend.ts sends it a
command's arguments (or a script, for `python -c`) over the Unix socket <data dir>/ops.sock,
and it answers with what the command would have printed and its exit status. Commands run one
at a time, each in its own transaction, exactly as `pao ops …` runs them. Without the socket
(PAO_E2E_BASE_URL, or before the server is up), support/backend.ts runs the command itself.

Usage: python ops_server.py <socket path>. It stops with its parent (the webServer's shell).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import sys
import traceback
from typing import Any

path = sys.argv[1]
with contextlib.suppress(FileNotFoundError):
    os.unlink(path)
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
# Bound before the backend is imported: a first command waits for the import, not for a file.
listener.bind(path)
listener.listen(8)
listener.settimeout(2)
parent = os.getppid()

from pao.cli import app


def handle(request: dict[str, Any]) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            if "script" in request:
                sys.argv = ["-c", *request["argv"]]
                # The tests' own `python -c` scripts, from a socket only this machine's tests reach.
                exec(compile(request["script"], "<e2e>", "exec"), {"__name__": "__main__"})  # noqa: S102
            else:
                result = app(request["args"], prog_name="pao", standalone_mode=False)
                code = result if isinstance(result, int) else 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Exception as exc:  # noqa: BLE001  (reported to the test, as the CLI would)
            # Typer's own click: Exit (a status), usage errors (shown, then a status), others.
            if hasattr(exc, "show"):
                exc.show()
            elif not hasattr(exc, "exit_code"):
                traceback.print_exc()
            code = getattr(exc, "exit_code", 1)
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


while os.getppid() == parent:
    try:
        connection, _ = listener.accept()
    except TimeoutError:
        continue
    with connection:
        connection.settimeout(None)
        data = b""
        while not data.endswith(b"\n"):
            chunk = connection.recv(65536)
            if not chunk:
                break
            data += chunk
        answer = handle(json.loads(data))
        connection.sendall(json.dumps(answer).encode() + b"\n")
