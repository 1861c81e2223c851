"""``pao ops agent add NAME --password …``: operator accounts of the chat's agent inbox."""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.ops.base import run

app = typer.Typer(help="Chat agents (the /agent inbox).", no_args_is_help=True)


async def add_agent_line(
    session: AsyncSession, *, login: str, password: str, display_name: str | None
) -> str:
    from pao.support.agents import create_agent

    agent = await create_agent(session, login=login, password=password, display_name=display_name)
    return f"agent {agent.id} {agent.login} ({agent.display_name}) added"


@app.command("add")
def add_command(
    login: Annotated[str, typer.Argument(help="The agent's login: a phone number or a name.")],
    password: Annotated[
        str,
        typer.Option(
            prompt=True, hide_input=True, confirmation_prompt=True, help="At least 8 characters."
        ),
    ],
    name: Annotated[str | None, typer.Option(help="The name customers see.")] = None,
) -> None:
    """Add an agent account (password hashed with argon2id)."""
    typer.echo(
        run(
            lambda session: add_agent_line(
                session, login=login, password=password, display_name=name
            )
        )
    )
