"""AMB's Common Flow against the real app on SQLite and PostgreSQL, signed as AMB signs:
balance, bets, settlement (and single-state products), AMB's duplicate rule, cancel once and
before its bet, settle on a cancelled bet, insufficient funds, bad signature, a batch stopping
at its first refusal. The same core as Hub88's: only the wire differs."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from pao.backoffice.staff.roles import Role
from pao.core.settings import Settings
from pao.games.seamless.amb.signature import sign
from pao.games.seamless.hub88.wire import user_of
from pao.games.seamless.models import SeamlessRound, SeamlessTransaction
from pao.ledger.service import check_books
from pao.main import create_app
from tests.games_support import funded_member
from tests.helpers import app_of
from tests.staff_helpers import add_staff, bearer, open_token

pytestmark = pytest.mark.sqlite


class Amb:
    def __init__(self, client: httpx.AsyncClient, member_id: int) -> None:
        self.client = client
        self.username = user_of(member_id)

    async def call(self, path: str, body: dict[str, Any], *, signed: bool = True) -> Any:
        raw = json.dumps(body).encode()
        stamp = str(int(time.time() * 1000))
        headers = {"Content-Type": "application/json", "sapi-timestamp": stamp}
        if signed:
            headers["sapi-signature"] = sign(app_of(self.client).state.settings, stamp, raw)
        response = await self.client.post(f"/api/amb/pgsoft/{path}", content=raw, headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    def envelope(self, *txns: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": str(uuid.uuid4()),
            "timestampMillis": int(time.time() * 1000),
            "productId": "PGSOFT",
            "currency": "THB",
            "username": self.username,
            "txns": list(txns),
        }

    @staticmethod
    def txn(status: str, bet: float, payout: float = 0, **fields: Any) -> dict[str, Any]:
        return {
            "id": "tx-" + uuid.uuid4().hex[:10],
            "status": status,
            "roundId": "r-" + uuid.uuid4().hex[:10],
            "betAmount": bet,
            "payoutAmount": payout,
            "gameCode": "1",
            "playInfo": "UNKNOWN",
            "transactionType": "BY_TRANSACTION",
            **fields,
        }

    async def balance(self) -> float:
        body = {"id": "b", "productId": "PGSOFT", "currency": "THB", "username": self.username}
        answer = await self.call("checkBalance", body)
        assert answer["statusCode"] == 0
        return float(answer["balance"])


async def _amb(client: httpx.AsyncClient, minor: int) -> Amb:
    _, member_id = await funded_member(client, minor)
    return Amb(client, member_id)


@pytest.fixture(autouse=True)
async def _books_balance(client: httpx.AsyncClient) -> Any:
    yield
    async with app_of(client).state.sessionmaker() as session:
        report = await check_books(session)
    assert report.balanced, report


async def test_bet_then_settle_and_the_duplicate_rule(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    assert await amb.balance() == 1_000
    bet = amb.txn("OPEN", 100)
    placed = await amb.call("placeBets", amb.envelope(bet))
    assert (placed["statusCode"], placed["balance"], placed["balanceBefore"]) == (0, 900, 1_000)
    again = await amb.call("placeBets", amb.envelope(bet))
    assert (again["statusCode"], again["balance"]) == (20002, 900)
    settle = {**bet, "status": "SETTLED", "payoutAmount": 250.5}
    settled = await amb.call("settleBets", amb.envelope(settle))
    assert (settled["statusCode"], settled["balance"]) == (0, 1_150.5)
    assert (await amb.call("settleBets", amb.envelope(settle)))["statusCode"] == 20002
    assert await amb.balance() == 1_150.5


async def test_single_state_settlement_takes_the_stake_and_pays(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    one = amb.txn("SETTLED", 10, 25, isSingleState=True, isEndRound=True)
    answer = await amb.call("settleBets", amb.envelope(one))
    assert (answer["statusCode"], answer["balance"]) == (0, 1_015)
    assert (await amb.call("settleBets", amb.envelope(one)))["statusCode"] == 20002
    assert await amb.balance() == 1_015


async def test_cancel_once_and_cancel_before_the_bet(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    bet = amb.txn("OPEN", 300)
    await amb.call("placeBets", amb.envelope(bet))
    cancel = {**bet, "status": "REFUND"}
    assert (await amb.call("cancelBets", amb.envelope(cancel)))["balance"] == 1_000
    assert (await amb.call("cancelBets", amb.envelope(cancel)))["statusCode"] == 20002
    settle = {**bet, "status": "SETTLED", "payoutAmount": 900}
    assert (await amb.call("settleBets", amb.envelope(settle)))["statusCode"] == 20003

    late = amb.txn("OPEN", 200)
    early = await amb.call("cancelBets", amb.envelope({**late, "status": "REFUND"}))
    assert early["statusCode"] == 0
    assert (await amb.call("placeBets", amb.envelope(late)))["statusCode"] == 20003
    assert await amb.balance() == 1_000


async def test_a_batch_stops_at_its_first_refusal(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 50_000)
    batch = amb.envelope(amb.txn("OPEN", 300), amb.txn("OPEN", 300), amb.txn("OPEN", 100))
    answer = await amb.call("placeBets", batch)
    assert (answer["statusCode"], answer["balance"]) == (10002, 200)
    assert await amb.balance() == 200  # the first stayed taken; the third was never tried


async def test_unsigned_unknown_and_unoffered_calls_move_nothing(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 10_000)
    bet = amb.envelope(amb.txn("OPEN", 10))
    assert (await amb.call("placeBets", bet, signed=False))["statusCode"] == 30002
    stranger = {**bet, "username": "m999999"}
    assert (await amb.call("placeBets", stranger))["statusCode"] == 10001
    assert (await amb.call("placeBets", {**bet, "currency": "LAK"}))["statusCode"] == 40003
    assert (await amb.call("adjustBalance", bet))["statusCode"] == 40003
    odd = amb.envelope(amb.txn("OPEN", 0.001))
    assert (await amb.call("placeBets", odd))["statusCode"] == 50001
    skipped = amb.envelope(amb.txn("OPEN", 10, skipBalanceUpdate=True))
    assert (await amb.call("placeBets", skipped))["statusCode"] == 0
    assert await amb.balance() == 100


# --- rounds: open until AMB ends them -----------------------------------------------------

OPEN_ROUNDS = "/api/backoffice/seamless/open-rounds"


async def _round_of(client: httpx.AsyncClient, scoped: str) -> SeamlessRound:
    async with app_of(client).state.sessionmaker() as session:
        found: SeamlessRound | None = await session.scalar(
            select(SeamlessRound).where(
                SeamlessRound.provider == "amb", SeamlessRound.round_id == scoped
            )
        )
    assert found is not None, scoped
    return found


async def _staff_sees_open(
    client: httpx.AsyncClient, headers: dict[str, str], member_id: int, scoped: str
) -> tuple[bool, bool]:
    """Whether staff see the round open: in the open-rounds report, and on the member's page."""
    report = await client.get(
        OPEN_ROUNDS, params={"provider": "amb", "olderThanMinutes": 0}, headers=headers
    )
    member = await client.get(
        f"/api/backoffice/members/{member_id}/seamless/rounds",
        params={"provider": "amb", "state": "open"},
        headers=headers,
    )
    assert report.status_code == member.status_code == 200, (report.text, member.text)
    return (
        scoped in [r["roundId"] for r in report.json()["items"]],
        scoped in [r["roundId"] for r in member.json()["items"]],
    )


async def test_a_round_settled_bet_by_bet_is_open_until_its_end(
    client: httpx.AsyncClient,
) -> None:
    app = app_of(client)
    _, member_id = await funded_member(client, 100_000)
    amb = Amb(client, member_id)
    manager = bearer(await open_token(app, await add_staff(app, role=Role.MANAGER)))
    round_id = "r-" + uuid.uuid4().hex[:10]
    scoped = f"PGSOFT:{round_id}"
    bets = [amb.txn("OPEN", stake, roundId=round_id) for stake in (100, 50, 10)]
    assert (await amb.call("placeBets", amb.envelope(*bets)))["statusCode"] == 0
    assert await _staff_sees_open(client, manager, member_id, scoped) == (True, True)
    # One settleBets per bet, as a table settles them; only the last says the round ended.
    payouts = (200, 0, 0)
    for i, (bet, payout) in enumerate(zip(bets, payouts, strict=True)):
        last = i == len(bets) - 1
        settle = {**bet, "status": "SETTLED", "payoutAmount": payout, "isEndRound": last}
        assert (await amb.call("settleBets", amb.envelope(settle)))["statusCode"] == 0
        round_ = await _round_of(client, scoped)
        assert (round_.closed_at is not None) is last, i
        assert await _staff_sees_open(client, manager, member_id, scoped) == (not last, not last)
    assert (round_.bets, round_.wins) == (16_000, 20_000)
    assert await amb.balance() == 1_000 - 160 + 200


async def test_what_ends_an_amb_round(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    # A single-state settlement is the whole round (providers.md §2), isEndRound or not.
    one = amb.txn("SETTLED", 10, 25, isSingleState=True)
    assert (await amb.call("settleBets", amb.envelope(one)))["statusCode"] == 0
    assert (await _round_of(client, f"PGSOFT:{one['roundId']}")).closed_at is not None
    # A BY_ROUND settlement settles every bet of the round at once: the round is over.
    round_id = "r-" + uuid.uuid4().hex[:10]
    bets = [amb.txn("OPEN", 10, roundId=round_id) for _ in range(2)]
    await amb.call("placeBets", amb.envelope(*bets))
    by_round = {**bets[1], "status": "SETTLED", "payoutAmount": 30, "transactionType": "BY_ROUND"}
    assert (await amb.call("settleBets", amb.envelope(by_round)))["statusCode"] == 0
    assert (await _round_of(client, f"PGSOFT:{round_id}")).closed_at is not None
    # A cancel of one bet leaves the round open; the one with isEndRound closes it.
    round_id = "r-" + uuid.uuid4().hex[:10]
    bets = [amb.txn("OPEN", 10, roundId=round_id) for _ in range(2)]
    await amb.call("placeBets", amb.envelope(*bets))
    for i, bet in enumerate(bets):
        cancel = {**bet, "status": "REFUND", "isEndRound": i == 1}
        assert (await amb.call("cancelBets", amb.envelope(cancel)))["statusCode"] == 0
        closed = (await _round_of(client, f"PGSOFT:{round_id}")).closed_at is not None
        assert closed is (i == 1), i
    assert await amb.balance() == 1_000 - 10 + 25 - 20 + 30


async def _sandbox_round(client: httpx.AsyncClient, amb: Amb, **fields: Any) -> Any:
    body = {"username": amb.username, "currency": "THB", "stake": 1_000, **fields}
    response = await client.post("/sandbox/amb/play/round", json=body)
    assert response.status_code == 200, response.text
    return response.json()


async def test_the_sandbox_aggregator_plays_rounds_and_faults_once(
    client: httpx.AsyncClient,
) -> None:
    amb = await _amb(client, 100_000)
    played = await _sandbox_round(client, amb)
    assert played["balance"] == 100_000 - 1_000 + played["payout"]
    balance = played["balance"]
    timed_out = await _sandbox_round(client, amb, fault="timeout")
    assert timed_out["balance"] == balance
    early = await _sandbox_round(client, amb, fault="cancel_first")
    assert early["log"][1] == "bets: 20003"
    twice = await _sandbox_round(client, amb, fault="duplicate", single_state=True)
    assert twice["balance"] == balance - 1_000 + twice["payout"]
    assert await amb.balance() * 100 == twice["balance"]


# --- the sandbox aggregator's AMB pages and table game --------------------------------------

TABLE_STAKES = {"player": 1_000, "banker": 500, "tie": 100}
# What each outcome pays the three bets above (stake + win): worked out by hand, not by the
# sandbox's own function, so a wrong payout fails here.
TABLE_PAYOUTS = {
    "player": {"player": 2_000, "banker": 0, "tie": 0},
    "banker": {"player": 0, "banker": 975, "tie": 0},
    "tie": {"player": 1_000, "banker": 500, "tie": 900},  # player and banker pushed
}


async def _table(client: httpx.AsyncClient, amb: Amb, **fields: Any) -> Any:
    body = {"username": amb.username, "currency": "THB", **TABLE_STAKES, **fields}
    response = await client.post("/sandbox/amb/play/table", json=body)
    assert response.status_code == 200, response.text
    return response.json()


async def _round_rows(client: httpx.AsyncClient, round_id: str) -> list[tuple[str, str, int]]:
    """Pao's record of a table round: (kind, txn id, amount) in the order written."""
    async with app_of(client).state.sessionmaker() as session:
        rows = await session.scalars(
            select(SeamlessTransaction)
            .where(
                SeamlessTransaction.provider == "amb",
                SeamlessTransaction.round_id == f"SBXLIVE:{round_id}",
            )
            .order_by(SeamlessTransaction.id)
        )
        return [(str(r.kind), r.txn_id, r.amount) for r in rows]


async def _pao_round(client: httpx.AsyncClient, round_id: str) -> SeamlessRound | None:
    async with app_of(client).state.sessionmaker() as session:
        found: SeamlessRound | None = await session.scalar(
            select(SeamlessRound).where(SeamlessRound.round_id == f"SBXLIVE:{round_id}")
        )
        return found


async def test_the_amb_page_plays_for_a_known_member(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 123_456)
    query = {"username": amb.username, "currency": "THB"}
    slot = await client.get("/sandbox/amb/play", params={**query, "game": "lucky-reels"})
    assert slot.status_code == 200, slot.text
    assert slot.headers["content-type"].startswith("text/html")
    assert "<h1>Lucky Reels</h1>" in slot.text
    assert '<output id="balance">1234.56</output>' in slot.text  # Pao's checkBalance
    assert '"endpoint": "/sandbox/amb/play/round"' in slot.text
    assert 'data-field="stake"' in slot.text
    table = await client.get("/sandbox/amb/play", params={**query, "game": "baccarat"})
    assert table.status_code == 200, table.text
    assert "<h1>Baccarat</h1>" in table.text
    assert ">Deal</button>" in table.text
    assert '"endpoint": "/sandbox/amb/play/table"' in table.text
    for side in ("player", "banker", "tie"):
        assert f'data-field="{side}"' in table.text
    # Where staff find it: the sandbox's index links each game for a member's AMB username.
    index = await client.get("/sandbox", params={"username": amb.username})
    assert index.status_code == 200
    link = f"/sandbox/amb/play?username={amb.username}&amp;currency=THB&amp;game=baccarat"
    assert link in index.text


def test_the_sandbox_pages_are_served_only_with_the_sandbox() -> None:
    def sandbox_paths(sandbox: bool) -> set[str]:
        nowhere = Path("/nonexistent-pao-amb")
        app = create_app(Settings(sandbox=sandbox, data_dir=nowhere, static_dir=nowhere))
        return {r.path for r in app.state.declared_routes if r.path.startswith("/sandbox")}

    assert {"/sandbox", "/sandbox/amb/play", "/sandbox/amb/play/table"} <= sandbox_paths(True)
    assert sandbox_paths(False) == set()


async def test_the_amb_page_refuses_and_escapes_bad_input(client: httpx.AsyncClient) -> None:
    script = "<script>alert(1)</script>"
    stranger = await client.get(
        "/sandbox/amb/play", params={"username": "m999999", "currency": "THB", "game": "baccarat"}
    )
    assert stranger.status_code == 404
    assert "does not know the player m999999 (statusCode 10001)" in stranger.text
    assert "<output" not in stranger.text
    for params in (
        {"username": script, "currency": "THB", "game": "baccarat"},
        {"username": "m0001", "currency": "THB", "game": script},
    ):
        page = await client.get("/sandbox/amb/play", params=params)
        assert page.status_code == 404
        assert script not in page.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text
    currency = await client.get(
        "/sandbox/amb/play", params={"username": "m0001", "currency": script}
    )
    assert currency.status_code == 422
    assert not currency.headers["content-type"].startswith("text/html")
    index = await client.get("/sandbox", params={"username": script})
    assert index.status_code == 200
    assert script not in index.text
    assert "Not an AMB username: &lt;script&gt;" in index.text
    assert "/sandbox/amb/play?" not in index.text


@pytest.mark.parametrize("outcome", ["player", "banker", "tie"])
async def test_a_table_round_of_three_bets_settles_exactly(
    client: httpx.AsyncClient, outcome: str
) -> None:
    amb = await _amb(client, 100_000)
    played = await _table(client, amb, outcome=outcome)
    paid = TABLE_PAYOUTS[outcome]
    expected = 100_000 - sum(TABLE_STAKES.values()) + sum(paid.values())
    assert (played["status"], played["result"]) == (0, outcome)
    assert (played["staked"], played["payout"]) == (1_600, sum(paid.values()))
    assert played["balance"] == expected
    assert await amb.balance() * 100 == expected
    # The opening chip alone, the others in one batch, then one settlement of all three.
    assert played["log"] == ["bet player: 0", "bet banker + tie: 0", f"settle ({outcome}): 0"]
    txn = {bet["side"]: "SBXLIVE:" + bet["txn"] for bet in played["bets"]}
    assert await _round_rows(client, played["round"]) == [
        ("bet", txn["player"], 1_000),
        ("bet", txn["banker"], 500),
        ("bet", txn["tie"], 100),
        *(("win", txn[side] + ":settle", paid[side]) for side in ("player", "banker", "tie")),
    ]
    pao_round = await _pao_round(client, played["round"])
    assert pao_round is not None
    assert (pao_round.bets, pao_round.wins) == (1_600, sum(paid.values()))
    assert pao_round.closed_at is not None


@pytest.mark.parametrize("fault", ["duplicate", "burst"])
async def test_table_faults_that_still_play_move_money_once(
    client: httpx.AsyncClient, fault: str
) -> None:
    amb = await _amb(client, 100_000)
    played = await _table(client, amb, outcome="tie", fault=fault)
    assert played["status"] == 0, played["log"]
    assert played["balance"] == 100_000 - 1_600 + 2_400
    assert await amb.balance() * 100 == 100_000 - 1_600 + 2_400
    if fault == "duplicate":
        assert "bet banker + tie, sent again: 20002" in played["log"]
        assert "settle (tie), sent again: 20002" in played["log"]
    rows = await _round_rows(client, played["round"])
    assert sorted(kind for kind, _, _ in rows) == ["bet"] * 3 + ["win"] * 3
    assert len({txn for _, txn, _ in rows}) == 6  # each txn id once


async def test_a_table_time_out_cancels_every_bet_once(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    played = await _table(client, amb, outcome="player", fault="timeout")
    assert (played["staked"], played["payout"], played["balance"]) == (0, 0, 100_000)
    assert await amb.balance() == 1_000
    assert played["log"][-3:] == ["cancel player: 0", "cancel banker: 0", "cancel tie: 0"]
    rows = await _round_rows(client, played["round"])
    assert [(kind, amount) for kind, _, amount in rows] == [
        ("bet", 1_000),
        ("bet", 500),
        ("bet", 100),
        ("rollback", 1_000),
        ("rollback", 500),
        ("rollback", 100),
    ]
    pao_round = await _pao_round(client, played["round"])
    assert pao_round is not None
    assert (pao_round.bets, pao_round.wins) == (0, 0)
    assert pao_round.closed_at is not None  # the last cancel ended the round


async def test_a_table_cancel_before_its_bet_moves_nothing(client: httpx.AsyncClient) -> None:
    amb = await _amb(client, 100_000)
    played = await _table(client, amb, outcome="player", fault="cancel_first")
    assert played["status"] == 20003  # the late bet refused: AMB's "bet already cancelled"
    assert played["log"] == [
        "cancel player before its bet: 0",
        "bet player: 20003",
        "cancel player: 20002",
    ]
    assert (played["balance"], await amb.balance()) == (100_000, 1_000)
    # Only the remembered cancel: the bet never taken, the others never sent.
    rows = await _round_rows(client, played["round"])
    assert [(kind, amount) for kind, _, amount in rows] == [("rollback", 0)]


async def test_a_table_bet_refused_mid_batch_calls_the_round_off(
    client: httpx.AsyncClient,
) -> None:
    amb = await _amb(client, 1_200)  # the player's 10.00 fits; the banker's 5.00 then does not
    played = await _table(client, amb, outcome="banker")
    assert played["status"] == 10002
    assert played["log"][:2] == ["bet player: 0", "bet banker + tie: 10002"]
    assert (played["balance"], await amb.balance()) == (1_200, 12)
    rows = await _round_rows(client, played["round"])
    assert [(kind, amount) for kind, _, amount in rows] == [
        ("bet", 1_000),
        ("rollback", 1_000),  # the bet Pao took, refunded
        ("rollback", 0),  # banker and tie never taken: their cancels remembered, nothing moved
        ("rollback", 0),
    ]
    # The round's last cancel (of a bet never taken) still ends the round Pao opened.
    pao_round = await _pao_round(client, played["round"])
    assert pao_round is not None
    assert (pao_round.bets, pao_round.closed_at is not None) == (0, True)
