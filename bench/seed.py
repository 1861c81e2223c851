"""The bench database: dropped, re-created from the models, and seeded through the app's own
services, so that every run starts from the same state and the books balance from row one.

Members ``08xxxxxxxx`` (index 1…N) share one password (hashed once, at the production argon2
cost) and each has a login session whose token is ``bench-token-<index>`` (stored, as always,
as its SHA-256), so that wrk and pgbench can address any member without a login round.
Member 1 is the "hot" wallet. The game catalogue is the demo's (sixteen games, as ``pao demo``
seeds it) and every member has an account on the first ``GAME_ACCOUNTS`` of them, so that the
wallet screen carries what a player's does."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pao.models  # noqa: F401  (registers every table)
from pao.core.db import Base, create_sessionmaker
from pao.core.security import hash_password, token_digest
from pao.games import ddl as games_ddl
from pao.games.catalogue import DEMO_GAMES, seed_games
from pao.games.models import GameAccount
from pao.games.seamless import ddl as seamless_ddl
from pao.games.seamless.hub88 import PROVIDER as HUB88
from pao.games.seamless.models import SeamlessGame, SeamlessSession
from pao.identity import ddl as identity_ddl
from pao.identity.models import LoginSession, Member
from pao.kit import idempotency_ddl
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger import credit_ddl
from pao.ledger.ddl import statements_for
from pao.ledger.models import AccountKind
from pao.ledger.service import get_or_open_account
from pao.payments.accounts import ReceivingAccount, ReceivingKind, ReceivingMode
from pao.site.settings import set_value
from pao.wallet import ddl as wallet_ddl
from pao.wallet.adjustments import credit_manually
from redis.asyncio import Redis
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from bench import slips
from bench.common import APP_DB_URL, REDIS_URL, log

PASSWORD = "bench-pass-1"
FUNDS = 1_000_000_00  # minor units per member: never the limit during a run
WITHDRAW_AMOUNT_MAJOR = (
    1  # THB per withdrawal request (withdrawMin is lowered to allow it)
)
GAME_ACCOUNTS = 3
# The game every wallet → game transfer of the bench goes to: one provider, its float shared.
TRANSFER_GAME = "JOKER"
# The seamless bench's game: one Hub88 game of the synced catalogue, every member's bets on it.
SEAMLESS_GAME = "bench_slot"


def phone_of(index: int) -> str:
    return f"08{index:08d}"


def token_of(index: int) -> str:
    return f"bench-token-{index}"


def seamless_token_of(index: int) -> str:
    """Member ``index``'s Hub88 session token (as a launch of the seamless game issues)."""
    return f"bench-hub88-{index}"


async def reset_database() -> None:
    url = make_url(APP_DB_URL)
    admin = create_async_engine(
        url.set(database="postgres"), isolation_level="AUTOCOMMIT"
    )
    async with admin.connect() as conn:
        await conn.execute(
            text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)')
        )
        await conn.execute(text(f'CREATE DATABASE "{url.database}"'))
    await admin.dispose()
    engine = create_async_engine(APP_DB_URL)
    async with engine.begin() as conn:
        # The schema of the models (the same as the tests build), plus the ledger's guards and
        # the money paths' functions.
        await conn.run_sync(Base.metadata.create_all)
        for statement in (
            *statements_for("postgresql"),
            *identity_ddl.statements_for("postgresql"),
            *idempotency_ddl.statements_for("postgresql"),
            *wallet_ddl.statements_for("postgresql"),
            *games_ddl.statements_for("postgresql"),
            *credit_ddl.statements_for("postgresql"),
            *seamless_ddl.statements_for("postgresql"),
        ):
            await conn.exec_driver_sql(statement)
    await engine.dispose()
    # Throttle counters and chat presence of an earlier run must not leak into this one.
    redis = Redis.from_url(REDIS_URL)
    await redis.flushdb()
    await redis.aclose()


async def seed(members: int) -> None:
    engine = create_async_engine(APP_DB_URL)
    sessionmaker = create_sessionmaker(engine)
    password_hash = await asyncio.to_thread(hash_password, PASSWORD)
    now = utcnow()
    async with sessionmaker() as session, session.begin():
        # Money settings are per currency (ADR 0020): a bare number is not one, and was
        # ignored (the default minimum then refused every 1 THB withdrawal).
        await set_value(
            session, "withdrawMin", {"THB": WITHDRAW_AMOUNT_MAJOR * 100}, actor="bench"
        )
        # The chat bench posts messages: the widget must be on (the FAQ bot stays off).
        await set_value(session, "enableChatWidget", True, actor="bench")
        # The slip bench: the operator's bank account slips are sent to, never a closed
        # window (the default closes uploads 23:50–00:10), and its slips of 1 THB accepted.
        session.add(
            ReceivingAccount(
                kind=ReceivingKind.BANK,
                code=slips.OPERATOR_BANK,
                mode=ReceivingMode.MANUAL,
                account_name="PAO BENCH",
                account_no=slips.OPERATOR_ACCOUNT,
            )
        )
        await set_value(session, "slipClosedFrom", "00:00", actor="bench")
        await set_value(session, "slipClosedTo", "00:00", actor="bench")
        await set_value(
            session, "slipMinimumDeposit", {"THB": slips.AMOUNT}, actor="bench"
        )
        rows = [
            Member(
                phone=phone_of(i),
                name=f"Bench Member {i}",
                password_hash=password_hash,
                currency=Currency.THB,
                bank_code="KBANK",
                bank_account_name="BENCH MEMBER",
                bank_account_no=f"{i:010d}",
                # A returning player: the agreement prompt (once per member, 1.5 s after home
                # opens) would otherwise be what Lighthouse measures as /user/home's content.
                agreement_accepted_at=now,
            )
            for i in range(1, members + 1)
        ]
        session.add_all(rows)
        await session.flush()
        session.add_all(
            LoginSession(
                member_id=member.id,
                token_digest=token_digest(token_of(i)),
                created_at=now,
                expires_at=now + timedelta(days=2),
            )
            for i, member in enumerate(rows, start=1)
        )
        await session.flush()
        await seed_games(session)
        session.add_all(
            GameAccount(
                member_id=member.id,
                game_code=game.code,
                username=f"bench{member.id}{game.code.lower()}",
                password="bench-game-pass",
                last_balance=0,
                balance_at=now,
            )
            for member in rows
            for game in DEMO_GAMES[:GAME_ACCOUNTS]
        )
        await session.flush()
        # The seamless bench (bench.seamless): Hub88's game in the catalogue, and a launch's
        # session token per member, valid for the whole run.
        session.add(
            SeamlessGame(
                provider=HUB88,
                game_code=SEAMLESS_GAME,
                name="Bench Slot",
                category="slots",
                synced_at=now,
            )
        )
        session.add_all(
            SeamlessSession(
                token=seamless_token_of(i),
                provider=HUB88,
                member_id=member.id,
                game_code=SEAMLESS_GAME,
                currency=Currency.THB,
                created_at=now,
                expires_at=now + timedelta(days=2),
            )
            for i, member in enumerate(rows, start=1)
        )
        await session.flush()
        for member in rows:
            # The member's suspense accounts, which a first withdrawal or wallet → game
            # transfer would open (pgbench expects them to exist).
            for kind in (
                AccountKind.WITHDRAWALS_PENDING,
                AccountKind.GAME_TRANSFERS_PENDING,
            ):
                await get_or_open_account(
                    session, kind=kind, currency=Currency.THB, owner=str(member.id)
                )
            # The transfer bench's provider float: every shard row exists, as after the
            # first transfers of an operator's day.
            await get_or_open_account(
                session,
                kind=AccountKind.PROVIDER_FLOAT,
                currency=Currency.THB,
                owner=TRANSFER_GAME,
                member_id=member.id,
            )
            # The seamless bench's clearing: every shard row of Hub88's exists.
            await get_or_open_account(
                session,
                kind=AccountKind.SEAMLESS_CLEARING,
                currency=Currency.THB,
                owner=HUB88,
                member_id=member.id,
            )
            # The slip bench credits from the bank clearing account's shard rows (all open).
            await get_or_open_account(
                session,
                kind=AccountKind.BANK_CLEARING,
                currency=Currency.THB,
                member_id=member.id,
            )
            await credit_manually(
                session,
                member=member,
                amount=FUNDS,
                note="bench funds",
                actor="ops:bench",
            )
    await engine.dispose()
    log(
        f"seeded {members} members with {FUNDS // 100:,} THB each, {len(DEMO_GAMES)} games "
        f"and {GAME_ACCOUNTS} game accounts each"
    )


def prepare(members: int) -> None:
    asyncio.run(reset_database())
    asyncio.run(seed(members))
