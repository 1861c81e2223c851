"""``pao demo``: demo data for a fresh install, idempotent.

Fills the site content (texts, lookups) and opens two members with money in their wallets,
credited through the operator's manual-credit path like any real credit. A member that
already exists is left alone (creating and crediting happen in one transaction, so an existing
demo member was credited), hence a second run changes nothing.

In sandbox mode only, it also adds one back-office staff member per role, with a known
password and fixed TOTP secrets (printed), so the back office can be tried at once; a real
deployment creates its first owner with ``pao ops staff add``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.backoffice.staff.roles import Role
from pao.core.settings import get_settings
from pao.identity.models import Member
from pao.kit.money import Currency
from pao.ops.base import format_money
from pao.payments.accounts import seed_receiving_accounts
from pao.wallet.adjustments import credit_manually

ACTOR = "demo"


@dataclass(frozen=True)
class DemoMember:
    phone: str
    password: str
    name: str
    bank_code: str
    bank_account_name: str
    bank_account_no: str
    credit: int  # minor units


DEMO_MEMBERS = (
    DemoMember(
        "0812345678", "demo1234", "Somchai Demo", "KBANK", "SOMCHAI DEMO", "1234567890", 1_000_00
    ),
    DemoMember("0898765432", "demo1234", "Malee Demo", "SCB", "MALEE DEMO", "9876543210", 250_00),
)


DEMO_STAFF_PASSWORD = "staff-demo-1"
# Fixed, well-known base32 secrets: acceptable only because the sandbox moves no real money.
DEMO_STAFF_SECRETS = {role: f"PAODEMO{role.value.upper()}".ljust(32, "A") for role in Role}


async def seed_demo_staff(session: AsyncSession) -> list[str]:
    """One staff member per role (login = the role's name), in sandbox mode only."""
    from pao.backoffice.audit.service import Actor
    from pao.backoffice.models import Staff
    from pao.backoffice.staff.service import create_staff

    if not get_settings().sandbox:
        return ["demo staff: not added (PAO_SANDBOX is off)"]
    lines = []
    for role, secret in DEMO_STAFF_SECRETS.items():
        login = role.value
        exists = await session.execute(select(Staff.id).where(Staff.login == login))
        if exists.first() is None:
            await create_staff(
                session,
                actor=Actor.operator(ACTOR),
                login=login,
                password=DEMO_STAFF_PASSWORD,
                role=role,
                display_name=f"Demo {role.value.title()}",
                totp_secret=secret,
            )
        lines.append(
            f"back office: {login} / {DEMO_STAFF_PASSWORD}  (role {role.value}, "
            f"TOTP secret {secret})"
        )
    return lines


async def seed_demo(session: AsyncSession) -> list[str]:
    """Seed everything; returns what was done, one line each."""
    from pao.identity.service import create_member
    from pao.site.demo_content import seed_site_content

    await seed_site_content(session, actor=ACTOR)
    lines = ["site content seeded"]
    lines += await seed_receiving_accounts(session, lao_mode=get_settings().lao_mode)
    from pao.promotions.demo import seed_promotions

    lines += await seed_promotions(session, lao_mode=get_settings().lao_mode)
    from pao.games.catalogue import DEMO_GAMES, SEAMLESS_DEMO_GAMES, seed_games

    lines.append(f"games: {await seed_games(session)} added")
    seamless = await seed_games(session, SEAMLESS_DEMO_GAMES, first_order=len(DEMO_GAMES))
    lines.append(f"seamless games: {seamless} added")
    for demo in DEMO_MEMBERS:
        existing = (
            await session.execute(select(Member).where(Member.phone == demo.phone))
        ).scalar_one_or_none()
        if existing is not None:
            lines.append(f"member {demo.phone} already exists; left as it is")
            continue
        member = await create_member(
            session,
            phone=demo.phone,
            name=demo.name,
            password=demo.password,
            bank_code=demo.bank_code,
            bank_account_name=demo.bank_account_name,
            bank_account_no=demo.bank_account_no,
            currency=Currency.THB,
        )
        await credit_manually(
            session, member=member, amount=demo.credit, note="demo data", actor=ACTOR
        )
        lines.append(
            f"member {demo.phone} / {demo.password} created with "
            f"{format_money(demo.credit, Currency.THB)}"
        )
    lines += await seed_demo_staff(session)
    first = DEMO_MEMBERS[0]
    lines.append(f"demo login: {first.phone} / {first.password}")
    return lines
