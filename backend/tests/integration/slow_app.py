"""The app with one slow route, served by ``uvicorn --factory`` in the shutdown test.

``POST /api/test/slow`` stands for a money call waiting on a third party: it says it has
started (a file), waits until the test lets it go (another file), and answers whether the
process was draining by then.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from fastapi import FastAPI

from pao.main import create_app


def create_slow_app() -> FastAPI:
    app = create_app()
    gate = Path(os.environ["PAO_TEST_GATE_DIR"])

    @app.post("/api/test/slow")
    async def slow() -> dict[str, bool]:
        (gate / "entered").touch()
        # The test is another process: a file, not an asyncio.Event, is what it can set.
        while not (gate / "release").exists():  # noqa: ASYNC110
            await asyncio.sleep(0.02)
        return {"finished": True, "drainingWhenFinished": app.state.drain.draining}

    return app
