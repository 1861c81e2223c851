"""The game transfer reconciler: settles transfers whose outcome the request did not learn
(time-out, 5xx, or a process that died between transaction 1 and transaction 2).

Each tick claims a small batch of PENDING transfers whose ``next_check_at`` has come, with
``SELECT … FOR UPDATE SKIP LOCKED``, and pushes their ``next_check_at`` forward by a lease
before committing, so other processes skip them while this one talks to the providers
outside any transaction. For each transfer it asks the provider for the transfer id:

* SUCCESS / FAILED → settle accordingly (post or void the hold, credit the wallet or not);
* NOT_FOUND        → the provider never processed it: send the same transfer again (the
                     provider deduplicates by transfer id), and settle on its answer;
* no answer        → try again later, backing off.

Settling locks the transfer row and re-checks that it is still PENDING, so the request, the
reconciler, or two reconcilers can never settle one transfer twice.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import structlog
from sqlalchemy import select

from pao.games.models import GameAccount, GameTransfer, GameTransferStatus
from pao.games.providers import provider_for
from pao.games.providers.base import ProviderError, RemoteTransferState
from pao.games.transfers import Outcome, _sessionmaker, call_provider, drive, settle
from pao.kit.clock import utcnow
from pao.kit.jobs import PeriodicJob

log = structlog.get_logger(__name__)

BATCH = 20
LEASE = timedelta(minutes=2)
INTERVAL_SECONDS = 15.0


async def _claim(app: Any) -> list[tuple[int, str, str, str, int, str]]:
    now = utcnow()
    async with _sessionmaker(app)() as session, session.begin():
        query = (
            select(GameTransfer)
            .where(
                GameTransfer.status == GameTransferStatus.PENDING,
                GameTransfer.next_check_at <= now,
            )
            .order_by(GameTransfer.next_check_at, GameTransfer.id)
            .limit(BATCH)
            .with_for_update(skip_locked=True)
        )
        claimed = list((await session.execute(query)).scalars().all())
        plans = []
        for transfer in claimed:
            transfer.next_check_at = now + LEASE
            username = (
                await session.execute(
                    select(GameAccount.username).where(
                        GameAccount.member_id == transfer.member_id,
                        GameAccount.game_code == transfer.game_code,
                    )
                )
            ).scalar_one()
            plans.append(
                (
                    transfer.id,
                    transfer.game_code,
                    str(transfer.direction),
                    username,
                    transfer.amount,
                    transfer.transfer_id,
                )
            )
    return plans


async def reconcile_one(
    app: Any, *, pk: int, code: str, direction: str, username: str, amount: int, transfer_id: str
) -> None:
    try:
        remote = await provider_for(app, game_code=code).transfer_status(transfer_id=transfer_id)
    except ProviderError as exc:
        outcome = Outcome(unknown=exc.reason)
    else:
        if remote.state == RemoteTransferState.NOT_FOUND:
            outcome = await call_provider(
                app,
                code=code,
                direction=direction,
                username=username,
                amount=amount,
                transfer_id=transfer_id,
            )
        else:
            outcome = Outcome(remote=remote)
    async with _sessionmaker(app)() as session, session.begin():
        next_pk = await settle(session, pk=pk, outcome=outcome)
    if next_pk is not None:
        await drive(app, next_pk)


async def reconcile_tick(app: Any) -> int:
    """One pass; returns how many transfers it looked at."""
    plans = await _claim(app)
    for pk, code, direction, username, amount, transfer_id in plans:
        try:
            await reconcile_one(
                app,
                pk=pk,
                code=code,
                direction=direction,
                username=username,
                amount=amount,
                transfer_id=transfer_id,
            )
        except Exception:  # one bad transfer must not stop the batch; its lease expires
            log.exception("game transfer reconcile failed", transfer=pk)
    return len(plans)


JOB = PeriodicJob(name="games.reconcile", interval_seconds=INTERVAL_SECONDS, tick=reconcile_tick)
