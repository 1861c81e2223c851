"""``pao ops agent add``: a chat agent is a support staff member, created from the command line
(the same as ``pao ops staff add LOGIN --role support``)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.models import Staff
from pao.core.security import verify_password
from pao.core.settings import Settings

from .test_cli import cli, cli_db, data_dir, db, failed

__all__ = ["cli_db", "data_dir"]  # fixtures, re-used


async def agents(session: AsyncSession) -> list[Staff]:
    return list((await session.execute(select(Staff))).scalars().all())


def test_add_agent(cli_db: Settings) -> None:
    result = cli("ops", "agent", "add", "0899999999", "--password", "agent-pass-1", "--name", "Ann")
    assert result.exit_code == 0, result.output
    lines = result.stdout.strip().splitlines()
    assert lines[0] == "staff 1 0899999999 (Ann) added as support"
    [agent] = db(agents)
    assert (agent.display_name, agent.role) == ("Ann", "support")
    assert agent.password_hash.startswith("$argon2id$")
    assert verify_password(agent.password_hash, "agent-pass-1")
    assert lines[1] == f"totp secret: {agent.totp_secret}"


def test_add_agent_refusals(cli_db: Settings) -> None:
    assert cli("ops", "agent", "add", "ann", "--password", "agent-pass-1").exit_code == 0
    failed(cli("ops", "agent", "add", "ann", "--password", "other-pass-2"), "STAFF_LOGIN_TAKEN")
    failed(
        cli("ops", "agent", "add", "bob", "--password", "short"),
        "KEY_INVALID (field=password)",
    )
    assert [a.login for a in db(agents)] == ["ann"]
