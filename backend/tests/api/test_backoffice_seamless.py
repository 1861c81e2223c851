"""The back office's view of seamless play, on SQLite and PostgreSQL: a member's rounds and
transactions (filters by provider, time and open or closed, paging, CSV), the open rounds across
members, and who may read them. The play itself runs through the seamless core's money rules
(:mod:`pao.games.seamless.core`), as a dialect calls them."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import case, func, select

from pao.backoffice.staff.roles import Role
from pao.games.seamless import core
from pao.games.seamless.core import Move
from pao.games.seamless.models import SeamlessTransaction, TxnKind
from pao.kit.clock import clock, utcnow
from pao.kit.money import Currency
from pao.ledger.models import AccountKind
from pao.ledger.service import account_balance, check_books
from pao.reports.seamless import reconciliation
from tests.games_support import funded_member
from tests.staff_helpers import add_staff, bearer, open_token

MEMBERS = "/api/backoffice/members"
OPEN_ROUNDS = "/api/backoffice/seamless/open-rounds"


async def staff(app: FastAPI, role: Role) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=role)))


class Play:
    """One member's calls into the seamless core, as a provider's dialect makes them."""

    def __init__(self, app: FastAPI, member_id: int) -> None:
        self.app = app
        self.member_id = member_id
        self.serial = 0

    async def run(self, operation: Any) -> core.Outcome:
        outcome = await core.run(self.app.state.sessionmaker, operation)
        assert outcome.ok, outcome
        return outcome

    def move(self, provider: str, round_id: str, **fields: Any) -> Move:
        self.serial += 1
        return Move(
            provider=provider,
            txn_id=f"{provider}-{self.member_id}-{self.serial}",
            member_id=self.member_id,
            currency=Currency.THB,
            round_id=round_id,
            game_code="slot_1",
            **fields,
        )

    async def bet(self, provider: str, round_id: str, amount: int) -> Move:
        move = self.move(provider, round_id, amount=amount)
        await self.run(lambda s: core.bet(s, move))
        return move

    async def win(self, bet: Move, amount: int, *, closed: bool = True) -> Move:
        move = self.move(
            bet.provider, bet.round_id, amount=amount, reference_id=bet.txn_id, round_closed=closed
        )
        await self.run(lambda s: core.win(s, move))
        return move

    async def rollback(self, bet: Move) -> Move:
        move = self.move(bet.provider, bet.round_id, reference_id=bet.txn_id)
        await self.run(lambda s: core.rollback(s, move))
        return move


async def player(client: httpx.AsyncClient, app: FastAPI, minor: int = 100_000) -> Play:
    _, member_id = await funded_member(client, minor)
    return Play(app, member_id)


async def get(client: httpx.AsyncClient, path: str, headers: dict[str, str], **query: Any) -> Any:
    response = await client.get(path, params=query, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def rows_of(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.fixture
async def manager(app: FastAPI) -> dict[str, str]:
    return await staff(app, Role.MANAGER)


@pytest.fixture(autouse=True)
async def _books_balance(app: FastAPI) -> Any:
    yield
    async with app.state.sessionmaker() as session:
        report = await check_books(session)
    assert report.balanced, report


async def test_a_members_rounds_filtered_paged_and_exported(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    me, other = await player(client, app), await player(client, app)
    start = utcnow()
    first = await me.bet("hub88", "r1", 10_000)
    await me.win(first, 25_000)
    clock.advance(timedelta(hours=2))
    later = utcnow()
    await me.bet("hub88", "r2", 5_000)
    refunded = await me.bet("amb", "r3", 3_000)
    await me.rollback(refunded)
    await other.bet("hub88", "o1", 1_000)
    manager = await staff(app, Role.MANAGER)  # after the clock moved (an idle session locks)

    path = f"{MEMBERS}/{me.member_id}/seamless/rounds"
    every = await get(client, path, manager)
    assert (every["total"], every["page"], every["limit"]) == (3, 1, 20)
    assert [r["roundId"] for r in every["items"]] == ["r3", "r2", "r1"]
    r1 = every["items"][2]
    assert r1 | {"id": 0, "openedAt": None, "closedAt": None} == {
        "id": 0,
        "memberId": me.member_id,
        "provider": "hub88",
        "roundId": "r1",
        "gameCode": "slot_1",
        "currency": "THB",
        "bets": 100.0,
        "wins": 250.0,
        "net": 150.0,
        "openedAt": None,
        "closedAt": None,
    }
    assert r1["closedAt"] is not None
    assert every["items"][0]["bets"] == 0  # the stake rolled back

    async def ids(**query: Any) -> list[str]:
        return [r["roundId"] for r in (await get(client, path, manager, **query))["items"]]

    assert await ids(provider="hub88") == ["r2", "r1"]
    assert await ids(provider="nobody") == []
    assert await ids(state="open") == ["r3", "r2"]
    assert await ids(state="closed") == ["r1"]
    assert await ids(**{"from": later.isoformat()}) == ["r3", "r2"]
    assert await ids(**{"from": start.isoformat(), "to": later.isoformat()}) == ["r1"]
    second = await get(client, path, manager, limit=2, page=2)
    assert (second["total"], second["page"], [r["roundId"] for r in second["items"]]) == (
        3,
        2,
        ["r1"],
    )
    bad = await client.get(path, params={"state": "half"}, headers=manager)
    assert bad.status_code == 422
    naive = await client.get(path, params={"from": "2026-01-01T00:00:00"}, headers=manager)
    assert naive.status_code == 422

    exported = await client.get(f"{path}.csv", params={"provider": "hub88"}, headers=manager)
    assert exported.status_code == 200, exported.text
    assert exported.headers["content-type"].startswith("text/csv")
    assert "attachment" in exported.headers["content-disposition"]
    lines = rows_of(exported.text)
    assert [(r["round_id"], r["bets"], r["wins"], r["net"]) for r in lines] == [
        ("r2", "50.00", "0.00", "-50.00"),
        ("r1", "100.00", "250.00", "150.00"),
    ]
    assert lines[0]["closed_at"] == ""


async def test_a_members_transactions_by_round_and_csv(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    me = await player(client, app)
    bet = await me.bet("hub88", "r1", 10_000)
    win = await me.win(bet, 0)
    refunded = await me.bet("hub88", "r2", 2_000)
    back = await me.rollback(refunded)

    path = f"{MEMBERS}/{me.member_id}/seamless/transactions"
    every = await get(client, path, manager)
    assert every["total"] == 4
    assert [t["txnId"] for t in every["items"]] == [
        back.txn_id,
        refunded.txn_id,
        win.txn_id,
        bet.txn_id,
    ]
    one = await get(client, path, manager, round="r2")
    assert [(t["kind"], t["amount"], t["referenceId"], t["rolledBack"]) for t in one["items"]] == [
        ("rollback", 20.0, refunded.txn_id, False),
        ("bet", 20.0, None, True),
    ]
    assert (await get(client, path, manager, provider="amb"))["total"] == 0
    paged = await get(client, path, manager, limit=3, page=2)
    assert [t["txnId"] for t in paged["items"]] == [bet.txn_id]

    exported = await client.get(f"{path}.csv", params={"round": "r2"}, headers=manager)
    assert exported.status_code == 200, exported.text
    lines = rows_of(exported.text)
    assert [(r["kind"], r["amount"], r["reference"], r["rolled_back"]) for r in lines] == [
        ("rollback", "20.00", refunded.txn_id, ""),
        ("bet", "20.00", "", "yes"),
    ]


async def test_an_unknown_member_and_who_may_read(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    me = await player(client, app)
    await me.bet("hub88", "r1", 1_000)
    for tab in ("rounds", "transactions", "rounds.csv", "transactions.csv"):
        missing = await client.get(f"{MEMBERS}/999999/seamless/{tab}", headers=manager)
        assert (missing.status_code, missing.json()) == (404, {"message": "NO_USER"}), tab
        anonymous = await client.get(f"{MEMBERS}/{me.member_id}/seamless/{tab}")
        assert anonymous.status_code == 401, tab
    # members.read: every role reads a member's play, as the member page's other tabs.
    for role in Role:
        headers = await staff(app, role)
        page = await get(client, f"{MEMBERS}/{me.member_id}/seamless/rounds", headers)
        assert page["total"] == 1, role


async def test_open_rounds_across_members_oldest_first(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    one, two = await player(client, app), await player(client, app)
    old = await one.bet("hub88", "old", 1_000)
    await two.bet("amb", "old-amb", 2_000)
    settled = await two.bet("hub88", "closed", 1_000)
    await two.win(settled, 500)
    clock.advance(timedelta(minutes=45))
    await one.bet("hub88", "fresh", 3_000)
    manager = await staff(app, Role.MANAGER)  # after the clock moved (an idle session locks)

    every = await get(client, OPEN_ROUNDS, manager)  # 30 minutes by default
    assert every["total"] == 2
    assert [(r["roundId"], r["memberId"], r["bets"]) for r in every["items"]] == [
        ("old", one.member_id, 10.0),
        ("old-amb", two.member_id, 20.0),
    ]
    now = await get(client, OPEN_ROUNDS, manager, olderThanMinutes=0)
    assert [r["roundId"] for r in now["items"]] == ["old", "old-amb", "fresh"]
    hub88 = await get(client, OPEN_ROUNDS, manager, provider="hub88", olderThanMinutes=0)
    assert [r["roundId"] for r in hub88["items"]] == ["old", "fresh"]
    paged = await get(client, OPEN_ROUNDS, manager, olderThanMinutes=0, limit=1, page=3)
    assert (paged["total"], [r["roundId"] for r in paged["items"]]) == (3, ["fresh"])
    ancient = await get(client, OPEN_ROUNDS, manager, olderThanMinutes=60)
    assert ancient["total"] == 0
    await one.win(old, 0)
    assert (await get(client, OPEN_ROUNDS, manager))["total"] == 1
    bad = await client.get(OPEN_ROUNDS, params={"olderThanMinutes": -1}, headers=manager)
    assert bad.status_code == 422

    # reports.read: the cashier and support do not read the operator's reports.
    for role in Role:
        response = await client.get(OPEN_ROUNDS, headers=await staff(app, role))
        allowed = role in {Role.OWNER, Role.MANAGER, Role.VIEWER}
        assert response.status_code == (200 if allowed else 403), role
    assert (await client.get(OPEN_ROUNDS)).status_code == 401


async def test_the_days_play_per_provider_on_the_dashboard_and_in_the_games_report(
    client: httpx.AsyncClient, app: FastAPI, manager: dict[str, str]
) -> None:
    one, two = await player(client, app), await player(client, app)
    won = await one.bet("hub88", "h1", 10_000)
    await one.win(won, 25_000)
    await two.bet("hub88", "h2", 4_000)  # still open: its stake stands
    refunded = await two.bet("amb", "a1", 3_000)
    await two.rollback(refunded)
    lost = await one.bet("amb", "a2", 2_000)
    await one.win(lost, 0)  # a lost round closed with 0: no money moves
    blind = one.move("hub88", "h3", reference_id="never-came")
    await one.run(lambda s: core.rollback(s, blind))  # remembered, 0

    board = await get(client, "/api/backoffice/dashboard", manager)
    assert board["seamless"] == [
        {"provider": "amb", "betCount": 2, "bets": 20.0, "wins": 0.0, "ggr": 20.0},
        {"provider": "hub88", "betCount": 2, "bets": 140.0, "wins": 250.0, "ggr": -110.0},
    ]

    body = await get(client, "/api/backoffice/reports/games", manager)
    tables = {
        t["name"]: [dict(zip([c["key"] for c in t["columns"]], r, strict=True)) for r in t["rows"]]
        for t in body["tables"]
    }
    assert tables["seamless"] == [
        {
            "provider": "amb",
            "bet_count": 2,
            "bets": 20.0,
            "rolled_back": 30.0,
            "win_count": 0,
            "wins": 0.0,
            "ggr": 20.0,
        },
        {
            "provider": "hub88",
            "bet_count": 2,
            "bets": 140.0,
            "rolled_back": 0.0,
            "win_count": 1,
            "wins": 250.0,
            "ggr": -110.0,
        },
    ]
    # The clearing holds what the operator took less what it paid: bets − wins.
    assert tables["seamless_clearing"] == [
        {"provider": "amb", "ledger": 20.0, "transactions": 20.0, "difference": 0.0},
        {"provider": "hub88", "ledger": -110.0, "transactions": -110.0, "difference": 0.0},
    ]
    exported = await client.get("/api/backoffice/reports/games/seamless.csv", headers=manager)
    assert exported.status_code == 200, exported.text
    assert [(r["provider"], r["bets"], r["wins"], r["ggr"]) for r in rows_of(exported.text)] == [
        ("amb", "20.00", "0.00", "20.00"),
        ("hub88", "140.00", "250.00", "-110.00"),
    ]

    # Yesterday's range has none of it (the summary is by day).
    clock.advance(timedelta(days=1))
    manager = await staff(app, Role.MANAGER)
    assert (await get(client, "/api/backoffice/dashboard", manager))["seamless"] == []
    two_days = await get(
        client,
        "/api/backoffice/dashboard",
        manager,
        **{
            "from": board["from"],
            "to": (await get(client, "/api/backoffice/dashboard", manager))["to"],
        },
    )
    assert [p["ggr"] for p in two_days["seamless"]] == [20.0, -110.0]


async def test_the_seamless_clearing_equals_the_settled_transactions(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    """For every provider and currency, the ledger's clearing (every shard) equals the stakes
    taken less the wins and the refunds of rolled-back stakes, as the seamless transactions
    record them, through every kind of call; and a transaction without its ledger entry shows
    as a difference."""
    players = [await player(client, app) for _ in range(3)]
    for n, me in enumerate(players):
        for provider in ("hub88", "amb"):
            for k in range(3):
                stake = 1_000 * (n + 1) + 100 * k
                bet = await me.bet(provider, f"{provider}-{n}-{k}", stake)
                match k:
                    case 0:
                        await me.win(bet, stake * 2)
                    case 1:
                        await me.rollback(bet)
                    case _:
                        await me.win(bet, 0, closed=False)
                        await me.win(bet, stake // 3)
    async with app.state.sessionmaker() as session:
        found = {c.provider: c for c in await reconciliation(session, currency=Currency.THB)}
        settled = {
            provider: int(total)
            for provider, total in await session.execute(
                select(
                    SeamlessTransaction.provider,
                    func.sum(
                        case(
                            (SeamlessTransaction.kind == TxnKind.BET, SeamlessTransaction.amount),
                            else_=0,
                        )
                    )
                    - func.sum(
                        case(
                            (SeamlessTransaction.kind == TxnKind.WIN, SeamlessTransaction.amount),
                            else_=0,
                        )
                    ),
                )
                .where(SeamlessTransaction.rolled_back.is_(False))
                .where(SeamlessTransaction.kind != TxnKind.ROLLBACK)
                .group_by(SeamlessTransaction.provider)
            )
        }
        for provider in ("hub88", "amb"):
            ledger = await account_balance(
                session, kind=AccountKind.SEAMLESS_CLEARING, owner=provider, currency=Currency.THB
            )
            # The ledger = the stakes that stand (not rolled back) less the wins paid.
            assert ledger == settled[provider] == found[provider].ledger, provider
            assert found[provider].transactions == ledger
            assert found[provider].difference == 0
        assert await reconciliation(session, currency=Currency.LAK) == []

        # A transaction recorded without its ledger entry is a difference the report shows.
        session.add(
            SeamlessTransaction(
                provider="hub88",
                txn_id="orphan",
                kind=TxnKind.BET,
                member_id=players[0].member_id,
                currency=Currency.THB,
                amount=777,
                round_id="orphan",
                game_code="slot_1",
            )
        )
        await session.flush()
        found = {c.provider: c for c in await reconciliation(session, currency=Currency.THB)}
        assert found["hub88"].difference == -777
        await session.rollback()
