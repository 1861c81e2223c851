"""Rules of the sandbox game provider (it plays the third party, so it keeps its own books).

* A transfer is keyed by the client's transfer id: the same id again returns the first
  outcome and moves nothing; the same id with other parameters is refused.
* A withdraw above the balance is recorded as FAILED (INSUFFICIENT_BALANCE), so a later
  status query says so too.
* Spins draw their outcome on the server with :mod:`secrets`; every bet is recorded, so
  turnover can be read back.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.clock import utcnow
from pao.sandbox.games.models import (
    SandboxGameAccount,
    SandboxGameBet,
    SandboxGameFault,
    SandboxGameSession,
    SandboxGameTransfer,
)

SESSION_TTL = timedelta(hours=4)
SYMBOLS = ("CHERRY", "LEMON", "BELL", "STAR", "SEVEN")
# Three of a kind pays bet × multiplier; any pair returns half the bet.
TRIPLE_PAYS = {"CHERRY": 5, "LEMON": 5, "BELL": 10, "STAR": 20, "SEVEN": 50}
BETS = (1_00, 5_00, 10_00, 50_00)


class SandboxRefusal(Exception):
    def __init__(self, error: str, status_code: int = 400) -> None:
        super().__init__(error)
        self.error = error
        self.status_code = status_code


def _secret(length: int) -> str:
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(length))


async def find_account(session: AsyncSession, brand: str, username: str) -> SandboxGameAccount:
    account = (
        await session.execute(
            select(SandboxGameAccount).where(
                SandboxGameAccount.brand == brand, SandboxGameAccount.username == username
            )
        )
    ).scalar_one_or_none()
    if account is None:
        raise SandboxRefusal("NO_ACCOUNT", 404)
    return account


async def create_account(
    session: AsyncSession, *, brand: str, member_ref: str
) -> SandboxGameAccount:
    existing = (
        await session.execute(
            select(SandboxGameAccount).where(
                SandboxGameAccount.brand == brand, SandboxGameAccount.member_ref == member_ref
            )
        )
    ).scalar_one_or_none()
    if existing is not None:
        return existing  # opening twice for the same member gives the same account
    account = SandboxGameAccount(
        brand=brand,
        username=f"{brand.lower()[:6]}{_secret(8)}",
        password=_secret(10),
        member_ref=member_ref,
        balance=0,
    )
    session.add(account)
    await session.flush()
    return account


async def find_transfer(session: AsyncSession, transfer_id: str) -> SandboxGameTransfer | None:
    return (
        await session.execute(
            select(SandboxGameTransfer).where(SandboxGameTransfer.transfer_id == transfer_id)
        )
    ).scalar_one_or_none()


async def apply_transfer(
    session: AsyncSession,
    *,
    brand: str,
    transfer_id: str,
    username: str,
    kind: str,
    amount: int,
) -> SandboxGameTransfer:
    if kind not in ("deposit", "withdraw") or amount <= 0:
        raise SandboxRefusal("BAD_REQUEST")
    done = await find_transfer(session, transfer_id)
    if done is not None:
        if (done.brand, done.username, done.type, done.amount) != (brand, username, kind, amount):
            raise SandboxRefusal("TRANSFER_ID_CONFLICT", 409)
        return done
    account = await find_account(session, brand, username)
    status, reason = "SUCCESS", None
    if kind == "deposit":
        account.balance += amount
    elif account.balance >= amount:
        account.balance -= amount
    else:
        status, reason = "FAILED", "INSUFFICIENT_BALANCE"
    record = SandboxGameTransfer(
        transfer_id=transfer_id,
        brand=brand,
        username=username,
        type=kind,
        amount=amount,
        status=status,
        reason=reason,
        balance_after=account.balance,
    )
    session.add(record)
    await session.flush()
    return record


async def reset_password(session: AsyncSession, *, brand: str, username: str) -> str:
    account = await find_account(session, brand, username)
    account.password = _secret(10)
    return account.password


async def open_session(session: AsyncSession, *, brand: str, username: str) -> str:
    token = secrets.token_urlsafe(24)
    session.add(
        SandboxGameSession(
            token=token, brand=brand, username=username, expires_at=utcnow() + SESSION_TTL
        )
    )
    await session.flush()
    return token


async def login(session: AsyncSession, *, brand: str, username: str, password: str) -> str:
    try:
        account = await find_account(session, brand, username.strip())
    except SandboxRefusal:
        raise SandboxRefusal("WRONG_CREDENTIAL", 401) from None
    if not secrets.compare_digest(account.password, password):
        raise SandboxRefusal("WRONG_CREDENTIAL", 401)
    return await open_session(session, brand=brand, username=account.username)


async def session_account(session: AsyncSession, token: str) -> SandboxGameAccount:
    row = await session.get(SandboxGameSession, token)
    if row is None or row.expires_at <= utcnow():
        raise SandboxRefusal("SESSION_EXPIRED", 401)
    return await find_account(session, row.brand, row.username)


@dataclass(frozen=True)
class SpinResult:
    reels: list[str]
    bet: int
    payout: int
    balance: int
    bet_id: int


def payout_for(reels: list[str], bet: int) -> int:
    if reels[0] == reels[1] == reels[2]:
        return bet * TRIPLE_PAYS[reels[0]]
    if len(set(reels)) == 2:
        return bet // 2
    return 0


async def spin(session: AsyncSession, *, token: str, bet: int) -> SpinResult:
    if bet not in BETS:
        raise SandboxRefusal("BAD_BET")
    account = await session_account(session, token)
    if account.balance < bet:
        raise SandboxRefusal("INSUFFICIENT_BALANCE")
    reels = [secrets.choice(SYMBOLS) for _ in range(3)]
    payout = payout_for(reels, bet)
    account.balance += payout - bet
    record = SandboxGameBet(
        brand=account.brand,
        username=account.username,
        bet=bet,
        payout=payout,
        reels=",".join(reels),
    )
    session.add(record)
    await session.flush()
    return SpinResult(reels, bet, payout, account.balance, record.id)


async def bets(
    session: AsyncSession, *, brand: str, username: str, since: datetime, until: datetime
) -> list[SandboxGameBet]:
    query = (
        select(SandboxGameBet)
        .where(
            SandboxGameBet.brand == brand,
            SandboxGameBet.username == username,
            SandboxGameBet.created_at >= since,
            SandboxGameBet.created_at < until,
        )
        .order_by(SandboxGameBet.id)
    )
    return list((await session.execute(query)).scalars().all())


async def take_fault(
    session: AsyncSession, *, brand: str, username: str | None, operation: str
) -> SandboxGameFault | None:
    """Consume one armed fault matching this call, if any (oldest first); a ``down`` fault
    is not consumed: the provider stays down until the faults are cleared."""
    faults = (
        (await session.execute(select(SandboxGameFault).order_by(SandboxGameFault.id)))
        .scalars()
        .all()
    )
    for fault in faults:
        if fault.brand not in (None, brand):
            continue
        if fault.username not in (None, username):
            continue
        if fault.operation not in ("any", operation) and not (
            fault.operation == "transfer" and operation in ("deposit", "withdraw")
        ):
            continue
        if fault.mode == "down":
            return fault  # stays armed until the faults are cleared
        fault.remaining -= 1
        if fault.remaining <= 0:
            await session.delete(fault)
        await session.flush()
        return fault
    return None
