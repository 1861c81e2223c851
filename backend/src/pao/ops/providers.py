"""``pao ops providers list|maintenance on|off|sync|check``: game providers' state and
maintenance, a seamless aggregator's game list fetched now, and the go-live check of every
configured third party (:mod:`pao.ops.provider_check`).

The same functions as the back office's ``/api/backoffice/providers``
(:mod:`pao.backoffice.providers.service`), with the same audit rows, recorded as
``ops:<OS user>``. Running API processes see a change within a second
(pao.games.availability). ``list`` shows the health tracker's window too when Redis is
configured (without it each API process keeps its own, which this command cannot see)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from types import SimpleNamespace
from typing import Annotated

import httpx
import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit.service import Actor
from pao.backoffice.providers import service as providers_service
from pao.core.settings import get_settings
from pao.games.admin import providers_overview
from pao.games.availability import ProviderStatus
from pao.games.health import create_health_tracker
from pao.games.models import Game
from pao.games.seamless.hub88.games_api import Hub88Error, sync_games
from pao.ops.base import OpsError, fail, operator, run
from pao.ops.provider_check import Probe, check_providers

app = typer.Typer(help="Game providers: state, health and maintenance.", no_args_is_help=True)
maintenance_app = typer.Typer(help="Set a provider into maintenance, or end it.")
app.add_typer(maintenance_app, name="maintenance")


def describe(game: Game, status: ProviderStatus, *, shared_health: bool) -> str:
    line = f"{game.code:<10} {status.state.value:<11}"
    if status.reason is not None:
        until = status.until.isoformat(timespec="minutes") if status.until else "until ended"
        line += f" {until}  {status.reason} (by {status.set_by})"
    if shared_health:
        health = status.health
        line += (
            f"  [{health.circuit.value}: {health.failures}/{health.calls} failed, "
            f"{health.timeouts} timed out]"
        )
    return line


@app.command("list")
def list_command() -> None:
    """Every provider (game code) with its state."""
    settings = get_settings()

    async def work(session: AsyncSession) -> list[str]:
        tracker = create_health_tracker(settings)
        try:
            rows = await providers_overview(tracker, session)
        finally:
            await tracker.close()
        shared = settings.redis_url is not None
        return [describe(g, s, shared_health=shared) for g, s in rows] or ["no games"]

    for line in run(work):
        typer.echo(line)


def _until(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        fail(f"invalid --until {text!r}: give e.g. 2026-12-01T14:00+07:00")
    if value.tzinfo is None:
        fail(f"invalid --until {text!r}: give the time zone, e.g. +07:00")
    return value


@maintenance_app.command("on")
def on_command(
    code: Annotated[str, typer.Argument(help="The game code, e.g. JOKER.")],
    reason: Annotated[str, typer.Option(help="Why (shown to staff).")],
    until: Annotated[
        str | None, typer.Option(help="Planned end, ISO 8601 with time zone (shown to players).")
    ] = None,
) -> None:
    """Set a provider into maintenance: players see it on the game card, and transfers to or
    from it, its launch and new accounts there are refused."""
    planned = _until(until)

    async def work(session: AsyncSession) -> str:
        await providers_service.turn_on(
            session, code=code, reason=reason, until=planned, actor=Actor.operator(operator())
        )
        end = f" until {planned.isoformat(timespec='minutes')}" if planned else ""
        return f"{code.upper()} in maintenance{end}: {reason}"

    typer.echo(run(work))


@maintenance_app.command("off")
def off_command(code: Annotated[str, typer.Argument(help="The game code.")]) -> None:
    """End a provider's maintenance now."""

    async def work(session: AsyncSession) -> str:
        actor = Actor.operator(operator())
        before = await providers_service.turn_off(session, code=code, actor=actor)
        if not before["maintenance"]:
            return f"{code.upper()} was not in maintenance"
        return f"{code.upper()} maintenance ended"

    typer.echo(run(work))


@app.command("sync")
def sync_command(
    provider: Annotated[str, typer.Argument(help="The seamless aggregator: hub88.")],
) -> None:
    """Fetch a seamless aggregator's game list now (Hub88 allows one call a minute; running
    API processes also sync it every hour)."""
    if provider != "hub88":
        fail(f"unknown seamless aggregator {provider!r}: hub88")
    settings = get_settings()
    if not settings.hub88_enabled:
        fail("Hub88 is off: set PAO_HUB88_OPERATOR_ID and its keys")

    async def work(session: AsyncSession) -> int:
        async with httpx.AsyncClient() as http:
            # What the Games API client reads of an app: its settings and HTTP client.
            app = SimpleNamespace(state=SimpleNamespace(settings=settings, http=http))
            try:
                return await sync_games(app, session)
            except Hub88Error as exc:
                raise OpsError(f"hub88: {exc}") from exc

    typer.echo(f"hub88: {run(work)} games in the catalogue")


def check_client() -> httpx.AsyncClient:
    """The HTTP client of ``check`` (tests replace it with one on the sandbox app)."""
    return httpx.AsyncClient()


@app.command("check")
def check_command(
    only: Annotated[
        list[str] | None,
        typer.Option(help="Check only this provider (repeatable), e.g. --only slipok."),
    ] = None,
) -> None:
    """Before opening the site: one harmless, authenticated call to each configured third
    party (slip verifier, SMS, LINE, Hub88, game provider, bank payouts). Prints per
    provider whether it was reachable, the credentials accepted and the answer shaped as
    expected; exits 1 if any failed. Hub88 allows one game-list call a minute."""
    settings = get_settings()

    async def work() -> list[Probe]:
        async with check_client() as http:
            return await check_providers(settings, http, only=set(only) if only else None)

    probes = asyncio.run(work())
    for probe in probes:
        typer.echo(probe.line())
    failed = [probe.provider for probe in probes if probe.failed]
    if failed:
        typer.echo(f"FAILED: {', '.join(failed)}")
        raise typer.Exit(1)
    typer.echo("all configured providers answered as expected" if probes else "nothing checked")
