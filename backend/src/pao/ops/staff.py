"""``pao ops staff add|list|disable|enable|reset-2fa|reset-password``: back-office staff from
the shell (the first owner, scripts, recovery), and ``pao ops agent add`` (a support staff
member, for the chat inbox).

Each command calls the same service function as the back-office route
(:mod:`pao.backoffice.staff.service`) and is audited as ``ops:<OS user>``.
"""

from __future__ import annotations

from typing import Annotated

import typer
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.audit.service import Actor
from pao.backoffice.models import Staff
from pao.backoffice.staff import service
from pao.backoffice.staff.roles import Role
from pao.ops.base import operator, run

app = typer.Typer(help="Back-office staff (password + TOTP).", no_args_is_help=True)
agent_app = typer.Typer(help="Chat agents: support staff (the /agent inbox).", no_args_is_help=True)

PasswordOption = Annotated[
    str,
    typer.Option(
        prompt=True,
        hide_input=True,
        confirmation_prompt=True,
        help=f"{service.MIN_PASSWORD} to {service.MAX_PASSWORD} characters.",
    ),
]
NameOption = Annotated[str | None, typer.Option(help="The name shown (default: the login).")]
SecretOption = Annotated[
    str | None,
    typer.Option(
        "--totp-secret",
        help="Base32 TOTP secret to use (scripts, tests); default: a new random one.",
    ),
]
LoginArgument = Annotated[str, typer.Argument(help="The staff member's login.")]


def _actor() -> Actor:
    return Actor.operator(operator())


def describe(staff: Staff) -> str:
    state = "disabled" if staff.disabled_at is not None else "active"
    totp = "2fa enrolled" if staff.enrolled else "2fa pending"
    last = f"last login {staff.last_login_at:%Y-%m-%d %H:%M}Z" if staff.last_login_at else "never"
    return (
        f"{staff.id:>4}  {staff.login:<20} {staff.role:<8} {state:<8}  {totp:<12}  {last}  "
        f"({staff.display_name})"
    )


async def add_lines(
    session: AsyncSession,
    *,
    login: str,
    password: str,
    role: Role,
    display_name: str | None,
    totp_secret: str | None,
) -> list[str]:
    staff, enrolment = await service.create_staff(
        session,
        actor=_actor(),
        login=login,
        password=password,
        role=role,
        display_name=display_name,
        totp_secret=totp_secret,
    )
    return [
        f"staff {staff.id} {staff.login} ({staff.display_name}) added as {staff.role}",
        f"totp secret: {enrolment.secret}",
        f"totp uri:    {enrolment.uri}",
        "Add the secret (or the URI) to an authenticator app; the first login at "
        "/api/backoffice/auth/login asks for its code.",
    ]


@app.command("add")
def add_command(
    login: Annotated[str, typer.Argument(help="Letters, digits and . _ @ + - (up to 40).")],
    role: Annotated[Role, typer.Option(help="owner, manager, cashier, support or viewer.")],
    password: PasswordOption,
    name: NameOption = None,
    totp_secret: SecretOption = None,
) -> None:
    """Add a staff member; prints the TOTP secret and otpauth URI to enrol an authenticator."""
    for line in run(
        lambda session: add_lines(
            session,
            login=login,
            password=password,
            role=role,
            display_name=name,
            totp_secret=totp_secret,
        )
    ):
        typer.echo(line)


@agent_app.command("add")
def agent_add_command(
    login: Annotated[str, typer.Argument(help="The agent's login.")],
    password: PasswordOption,
    name: Annotated[str | None, typer.Option(help="The name customers see.")] = None,
    totp_secret: SecretOption = None,
) -> None:
    """Add a chat agent: the same as `pao ops staff add LOGIN --role support`."""
    add_command(login, Role.SUPPORT, password, name, totp_secret)


async def list_lines(session: AsyncSession) -> list[str]:
    return [describe(s) for s in await service.list_staff(session)] or ["no staff"]


@app.command("list")
def list_command() -> None:
    """List every staff member, active or not."""
    for line in run(list_lines):
        typer.echo(line)


async def set_disabled_line(session: AsyncSession, *, login: str, disabled: bool) -> str:
    target = await service.find_by_login(session, login)
    staff = await service.update_staff(
        session, actor=_actor(), staff_id=target.id, disabled=disabled
    )
    if disabled:
        return f"staff {staff.login} disabled; their sessions ended"
    return f"staff {staff.login} enabled"


@app.command("disable")
def disable_command(login: LoginArgument) -> None:
    """Disable a staff member and end their sessions (the last active owner stays)."""
    typer.echo(run(lambda session: set_disabled_line(session, login=login, disabled=True)))


@app.command("enable")
def enable_command(login: LoginArgument) -> None:
    """Enable a disabled staff member again."""
    typer.echo(run(lambda session: set_disabled_line(session, login=login, disabled=False)))


async def reset_two_factor_line(session: AsyncSession, *, login: str) -> str:
    target = await service.find_by_login(session, login)
    await service.reset_two_factor(session, actor=_actor(), staff_id=target.id)
    return (
        f"staff {target.login}: 2fa reset, sessions ended; the next login shows a new "
        "enrolment after the password"
    )


@app.command("reset-2fa")
def reset_two_factor_command(login: LoginArgument) -> None:
    """Forget a staff member's authenticator (lost phone) and end their sessions."""
    typer.echo(run(lambda session: reset_two_factor_line(session, login=login)))


async def reset_password_line(session: AsyncSession, *, login: str, password: str) -> str:
    target = await service.find_by_login(session, login)
    await service.reset_password(session, actor=_actor(), staff_id=target.id, password=password)
    return f"staff {target.login}: password set, sessions ended"


@app.command("reset-password")
def reset_password_command(login: LoginArgument, password: PasswordOption) -> None:
    """Set a new password for a staff member and end their sessions."""
    typer.echo(run(lambda session: reset_password_line(session, login=login, password=password)))
