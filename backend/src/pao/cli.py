"""The ``pao`` command: ``serve``, ``migrate``, ``demo`` and the operator commands ``ops …``.

Every database command runs in one transaction on the database of the ``PAO_*`` settings,
commits on success, and on a refusal prints one ``error:`` line and exits with status 1.
"""

from __future__ import annotations

import asyncio
import os
from typing import Annotated

import typer
from pydantic import ValidationError
from sqlalchemy import make_url

import pao.models  # noqa: F401  (every table and domain event subscriber)
from pao.core.logging import configure_logging
from pao.core.settings import get_settings
from pao.kit.ports import require_wired
from pao.ops import accounts, backup, deposits, members, providers, site, staff, withdrawals
from pao.ops.base import run
from pao.promotions.wiring import install as install_promotions

app = typer.Typer(
    help="Pao: the member wallet service.",
    no_args_is_help=True,
    # Locals may hold secrets (database URLs, tokens); never print them in a traceback.
    pretty_exceptions_show_locals=False,
)


@app.callback()
def _setup() -> None:
    try:
        settings = get_settings()
    except ValidationError as exc:
        # A refused deployment setting (e.g. the sandbox in production): one clear line.
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    # Logs go to stderr, so stdout carries only the command's own answer.
    configure_logging(settings)
    # The commands run the domains' functions without the app: plug the ports create_app
    # plugs (pao.kit.ports), so that a command reaching a bonus gate finds it.
    install_promotions()
    require_wired()


ops = typer.Typer(help="Operator commands (recorded as ops:<your OS user>).", no_args_is_help=True)
app.add_typer(ops, name="ops")
ops.command("deposit")(deposits.deposit)
ops.add_typer(withdrawals.app, name="withdrawals")
ops.add_typer(members.app, name="member")
ops.add_typer(site.site_app, name="site")
ops.add_typer(site.settings_app, name="settings")
ops.add_typer(accounts.app, name="accounts")
ops.add_typer(staff.app, name="staff")
ops.add_typer(staff.agent_app, name="agent")
ops.add_typer(providers.app, name="providers")
ops.command("backup")(backup.backup_command)
ops.command("restore")(backup.restore_command)


WORKER_HEALTHCHECK_SECONDS = 30
# How long an idle client connection is kept open. Longer than the proxy's own idle limit for
# its upstream connections (deploy/nginx/pao.conf: keepalive_timeout 60s), so that the proxy,
# never the app, closes an idle connection: with uvicorn's 5 s, a request sent on a connection
# the app was closing at that moment was lost (a 502 behind nginx, "socket hang up" in the
# browser tests).
KEEP_ALIVE_SECONDS = 75


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="Default: PAO_HOST.")] = None,
    port: Annotated[int | None, typer.Option(help="Default: PAO_PORT.")] = None,
    workers: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
) -> None:
    """Serve the API, the sandbox (when on) and the built web app.

    On SIGTERM it stops taking connections, answers /readyz 503, and lets the requests in
    flight finish for up to PAO_SHUTDOWN_GRACE_SECONDS (pao.observability.lifecycle)."""
    import uvicorn

    settings = get_settings()
    bind_host, bind_port = host or settings.host, port or settings.port
    if workers > 1:
        _share_metrics_between_workers()
    typer.echo(f"Pao on http://{bind_host}:{bind_port}")
    uvicorn.run(
        "pao.main:create_served_app",
        factory=True,
        host=bind_host,
        port=bind_port,
        workers=workers,
        timeout_graceful_shutdown=int(settings.shutdown_grace_seconds),
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        # With --workers, the parent kills a worker that does not answer its ping in time; a
        # worker still importing the app on a busy machine took longer than uvicorn's 5 s.
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
    )


def _share_metrics_between_workers() -> None:
    """Workers write their metrics to files in one directory, so that whichever worker answers
    /metrics reports them all (prometheus-client's multi-process mode, pao.core.metrics). The
    directory is emptied first: a previous run's values would count again. Set before the
    workers start (they read it when they import prometheus-client)."""
    import atexit
    import shutil
    import tempfile
    from pathlib import Path

    from pao.core.metrics import MULTIPROC_ENV

    given = os.environ.get(MULTIPROC_ENV)
    if given:
        directory = Path(given)
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("*.db"):
            stale.unlink()
        return
    directory = Path(tempfile.mkdtemp(prefix="pao-metrics-"))
    os.environ[MULTIPROC_ENV] = str(directory)
    atexit.register(shutil.rmtree, directory, ignore_errors=True)


@app.command()
def migrate() -> None:
    """Bring the database schema up to date."""
    from pao.core.migrate import upgrade

    settings = get_settings()
    asyncio.run(upgrade(settings))
    url = make_url(settings.resolved_database_url).render_as_string(hide_password=True)
    typer.echo(f"database up to date: {url}")


@app.command()
def demo() -> None:
    """Load the demo data (idempotent: a second run changes nothing)."""
    from pao.demo import seed_demo

    for line in run(seed_demo):
        typer.echo(line)


def main() -> None:
    app()
