"""``pao ops site terminate|reopen`` and ``pao ops settings set|get``: operator settings.

The rules live in :mod:`pao.site.service` (imported when a command runs, so the CLI loads
fast and only what it uses)."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Annotated, Any

import typer
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.ops.base import OpsError, operator, run
from pao.site.models import SiteSetting
from pao.site.settings import MoneySetting, SiteSettings, load_site_settings

site_app = typer.Typer(help="Close or reopen the whole site.", no_args_is_help=True)
settings_app = typer.Typer(help="Operator settings (stored in the database).", no_args_is_help=True)


async def terminate(session: AsyncSession, *, actor: str) -> str:
    from pao.site.service import terminate_site

    await terminate_site(session, actor=actor)
    return f"site terminated by {actor}: every /api call now answers 410 gone"


async def reopen(session: AsyncSession, *, actor: str) -> str:
    from pao.site.service import reopen_site

    await reopen_site(session, actor=actor)
    return f"site reopened by {actor}"


def _is_money(key: str) -> bool:
    for name, field in SiteSettings.model_fields.items():
        if key in (name, field.alias):
            return any(isinstance(item, MoneySetting) for item in field.metadata)
    return False


def _shown(key: str, value: Any) -> str:
    """Money settings in major units per currency (as ``set`` takes them: ``THB=100
    LAK=50000``, ``none`` for a currency without a value), everything else as JSON."""
    if _is_money(key) and isinstance(value, dict):
        return " ".join(
            f"{currency}={'none' if amount is None else Decimal(amount).scaleb(-2)}"
            for currency, amount in value.items()
        )
    return json.dumps(value, ensure_ascii=False, default=str)


async def set_setting_line(
    session: AsyncSession,
    *,
    key: str,
    raw_value: str,
    actor: str,
    currency: Currency | None = None,
) -> str:
    from pao.site.service import set_setting

    stored = await set_setting(
        session, key=key, raw_value=raw_value, actor=actor, currency=currency
    )
    return f"{key} = {_shown(key, stored)} (set by {actor})"


async def get_setting_lines(session: AsyncSession, *, key: str | None) -> list[str]:
    typed = (await load_site_settings(session)).model_dump(mode="json", by_alias=True)
    stored = {row.key: row for row in (await session.execute(select(SiteSetting))).scalars().all()}
    if key is not None:
        if key in typed:
            return [f"{key} = {_shown(key, typed[key])}"]
        if key in stored:
            return [f"{key} = {_shown(key, stored[key].value)}"]
        raise OpsError(f"no setting {key!r}")
    lines = [
        f"{name} = {_shown(name, value)}" + ("" if name in stored else "  (default)")
        for name, value in typed.items()
    ]
    lines += [
        f"{name} = {_shown(name, row.value)}  (not a known setting)"
        for name, row in sorted(stored.items())
        if name not in typed
    ]
    return lines


@site_app.command("terminate")
def terminate_command() -> None:
    """Close the site: every /api call answers 410 gone (but /api/lookup/active)."""
    actor = operator()
    typer.echo(run(lambda s: terminate(s, actor=actor)))


@site_app.command("reopen")
def reopen_command() -> None:
    """Reopen a terminated site."""
    actor = operator()
    typer.echo(run(lambda s: reopen(s, actor=actor)))


@settings_app.command("set")
def set_command(
    key: Annotated[str, typer.Argument(help="e.g. withdrawMin")],
    value: Annotated[
        str,
        typer.Argument(
            help="The value as text. Money is per currency, in major units: one currency's "
            "amount with --currency (none unsets it), or THB=100 LAK=50000."
        ),
    ],
    currency: Annotated[
        Currency | None,
        typer.Option("--currency", help="The currency whose amount a money setting sets."),
    ] = None,
) -> None:
    """Set one operator setting."""
    actor = operator()
    typer.echo(
        run(lambda s: set_setting_line(s, key=key, raw_value=value, actor=actor, currency=currency))
    )


@settings_app.command("get")
def get_command(
    key: Annotated[str | None, typer.Argument(help="One setting; all when omitted.")] = None,
) -> None:
    """Show one setting, or all of them."""
    for line in run(lambda s: get_setting_lines(s, key=key)):
        typer.echo(line)
