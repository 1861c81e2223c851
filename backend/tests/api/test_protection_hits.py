"""Members who hit limits, on SQLite and PostgreSQL: every refusal for a deposit or loss limit
or an exclusion is recorded (a QR, a transfer to a game, a seamless bet) although the request
is refused; a payment that arrives over a limit or during an exclusion is credited, never lost,
and flagged; the back office's report and the member's Protection tab show both; members
without a limit leave no record."""

from __future__ import annotations

import csv
import io
from zoneinfo import ZoneInfo

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.backoffice.staff.roles import Role
from pao.games.seamless import core
from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.protection.models import ProtectionHit
from tests.api.test_player_protection import _deposited, _member, _qr
from tests.api.test_qr_deposits import balance, notify
from tests.helpers import app_of, auth
from tests.staff_helpers import add_staff, bearer, open_token

pytestmark = pytest.mark.sqlite

REPORT = "/api/backoffice/reports/protection"


async def _hits(
    client: httpx.AsyncClient, member_id: int
) -> list[tuple[str, str, str, int | None]]:
    async with app_of(client).state.sessionmaker() as session:
        rows = await session.scalars(
            select(ProtectionHit)
            .where(ProtectionHit.member_id == member_id)
            .order_by(ProtectionHit.id)
        )
        return [(h.kind, h.outcome, h.channel, h.amount) for h in rows]


def _today() -> dict[str, str]:
    day = clock.now().astimezone(ZoneInfo("Asia/Bangkok")).date().isoformat()
    return {"from": day, "to": day}


async def test_refusals_are_recorded_and_reported(app: FastAPI, client: httpx.AsyncClient) -> None:
    token, member_id = await _member(client, 50_000)
    await client.put("/api/protection/limits", json={"day": 100}, headers=auth(token))
    await client.put("/api/protection/loss-limits", json={"day": 150}, headers=auth(token))
    over = await _qr(client, token, 300)
    assert (over.status_code, over.json()["message"]) == (400, "DEPOSIT_LIMIT_REACHED")
    await _deposited(client, member_id, 15_000)  # 150 in: the loss limit is reached
    transfer = await client.post(
        "/api/wallet/transfer",
        json={"from": "WALLET", "to": "JOKER", "amount": 10},
        headers=auth(token),
    )
    assert transfer.json()["message"] == "LOSS_LIMIT_REACHED"
    sessionmaker = app_of(client).state.sessionmaker
    move = core.Move("hub88", "hit-1", member_id, Currency.THB, "r-1", "g", amount=500)
    outcome = await core.run(sessionmaker, lambda session: core.bet(session, move))
    assert outcome.status is core.Status.LIMIT_REACHED
    assert await _hits(client, member_id) == [
        ("deposit_limit", "refused", "qr", 30_000),
        ("loss_limit", "refused", "game", 1_000),
        ("loss_limit", "refused", "seamless", 500),
    ]
    # Excluded: the first refusal names the exclusion.
    await client.post(
        "/api/protection/exclusion", json={"kind": "timeout", "days": 1}, headers=auth(token)
    )
    assert (await _qr(client, token, 1)).json()["message"] == "PLAY_EXCLUDED"
    assert (await _hits(client, member_id))[-1] == ("exclusion", "refused", "qr", 100)

    viewer = bearer(await open_token(app, await add_staff(app, role=Role.VIEWER)))
    answer = await client.get(REPORT, params=_today(), headers=viewer)
    assert answer.status_code == 200, answer.text
    (table,) = answer.json()["tables"]
    keys = [c["key"] for c in table["columns"]]
    rows = [dict(zip(keys, row, strict=True)) for row in table["rows"]]
    mine = {r["limit"]: (r["refusals"], r["flagged"]) for r in rows if r["member"] == member_id}
    assert mine == {"deposit_limit": (1, 0), "loss_limit": (2, 0), "exclusion": (1, 0)}
    exported = await client.get(f"{REPORT}/hits.csv", params=_today(), headers=viewer)
    assert exported.status_code == 200, exported.text
    lines = list(csv.reader(io.StringIO(exported.text)))
    assert lines[0][:4] == ["member", "name", "limit", "refusals"]
    assert sum(1 for line in lines[1:] if line[0] == str(member_id)) == 3
    # Another day's range: none of them.
    other = await client.get(
        REPORT, params={"from": "2020-01-01", "to": "2020-01-02"}, headers=viewer
    )
    assert other.json()["tables"][0]["rows"] == []
    cashier = bearer(await open_token(app, await add_staff(app, role=Role.CASHIER)))
    assert (await client.get(REPORT, headers=cashier)).status_code == 403


async def test_a_payment_over_the_limit_is_credited_and_flagged(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    token, member_id = await _member(client)
    await client.put("/api/protection/limits", json={"day": 150}, headers=auth(token))
    qr = await _qr(client, token, 100)
    assert qr.status_code == 200, qr.text
    await _deposited(client, member_id, 10_000)  # another 100 came in meanwhile
    paid = await notify(client, amount=qr.json()["amount"], payload=qr.json()["payload"])
    assert paid.json()["outcome"] == "CREDITED", paid.text
    assert await balance(client, token) == 100  # credited all the same
    assert await _hits(client, member_id) == [("deposit_limit", "credited", "qr", 10_000)]

    # Over the limit now: a new QR is refused (recorded); the tab shows both, newest first.
    qr = await _qr(client, token, 10)
    assert qr.status_code == 400  # over the limit now: refused (recorded)
    await client.put("/api/protection/limits", json={"day": None}, headers=auth(token))
    staff = bearer(await open_token(app, await add_staff(app, role=Role.SUPPORT)))
    tab = await client.get(f"/api/backoffice/members/{member_id}/protection", headers=staff)
    assert tab.status_code == 200, tab.text
    assert [(h["kind"], h["outcome"], h["amount"]) for h in tab.json()["hits"]] == [
        ("deposit_limit", "refused", 10),
        ("deposit_limit", "credited", 100),
    ]


async def test_a_payment_during_an_exclusion_is_credited_and_flagged(
    client: httpx.AsyncClient,
) -> None:
    token, member_id = await _member(client)
    qr = (await _qr(client, token, 40)).json()
    took = await client.post(
        "/api/protection/exclusion", json={"kind": "timeout", "days": 2}, headers=auth(token)
    )
    assert took.status_code == 200, took.text
    paid = await notify(client, amount=qr["amount"], payload=qr["payload"])
    assert paid.json()["outcome"] == "CREDITED", paid.text
    assert await balance(client, token) == 40
    assert await _hits(client, member_id) == [("exclusion", "credited", "qr", 4_000)]


async def test_members_without_limits_leave_no_record(client: httpx.AsyncClient) -> None:
    token, member_id = await _member(client)
    qr = (await _qr(client, token, 30)).json()
    assert (await notify(client, amount=qr["amount"], payload=qr["payload"])).status_code == 200
    async with app_of(client).state.sessionmaker() as session:
        count = await session.scalar(
            select(func.count())
            .select_from(ProtectionHit)
            .where(ProtectionHit.member_id == member_id)
        )
    assert count == 0
