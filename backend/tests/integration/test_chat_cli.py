"""``pao ops agent add``: agent accounts for the chat inbox, created from the command line."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.security import verify_password
from pao.core.settings import Settings
from pao.support.models import ChatAgent

from .test_cli import cli, cli_db, data_dir, db, failed

__all__ = ["cli_db", "data_dir"]  # fixtures, re-used


async def agents(session: AsyncSession) -> list[ChatAgent]:
    return list((await session.execute(select(ChatAgent))).scalars().all())


def test_add_agent(cli_db: Settings) -> None:
    result = cli("ops", "agent", "add", "0899999999", "--password", "agent-pass-1", "--name", "Ann")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "agent 1 0899999999 (Ann) added"
    [agent] = db(agents)
    assert agent.display_name == "Ann"
    assert agent.password_hash.startswith("$argon2id$")
    assert verify_password(agent.password_hash, "agent-pass-1")


def test_add_agent_refusals(cli_db: Settings) -> None:
    assert cli("ops", "agent", "add", "ann", "--password", "agent-pass-1").exit_code == 0
    failed(cli("ops", "agent", "add", "ann", "--password", "other-pass-2"), "EXISTING_USER")
    failed(
        cli("ops", "agent", "add", "bob", "--password", "short"),
        "KEY_INVALID (field=password)",
    )
    assert [a.login for a in db(agents)] == ["ann"]
