"""The back-office dashboard on both databases: money moved through every deposit channel by the
real services (slip, the three gateways through their sandbox, KBANK QR, TrueMoney, manual), a
paid withdrawal and a bonus, then the figures equal what was moved, per channel and per day;
the edges of a Bangkok day; bad ranges; the queue counts, which a reviewed slip and a payment
matched by hand leave; a viewer may read."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import select

from pao.backoffice.staff.roles import Role
from pao.identity.models import Member
from pao.kit.clock import clock, utcnow
from pao.payments.accounts import seed_receiving_accounts
from pao.payments.qr.models import BankNotification, PaymentOutcome
from pao.wallet.adjustments import credit_manually
from pao.wallet.withdrawals import approve_withdrawal, request_withdrawal
from tests.api.test_qr_deposits import create, notify
from tests.api.test_slips import bank_transfer, open_slips, slip_of, upload
from tests.api.test_slips import member as slip_member
from tests.api.test_truemoney import mint, send
from tests.helpers import member_id, register_and_login
from tests.promotions_helpers import add_bonus, deposit, new_player, wallet_amount
from tests.slip_images import slip_payload, slip_png
from tests.staff_helpers import add_staff, bearer, open_token

BANGKOK = timedelta(hours=7)


async def viewer(app: FastAPI) -> dict[str, str]:
    return bearer(await open_token(app, await add_staff(app, role=Role.VIEWER)))


async def dashboard(
    client: httpx.AsyncClient, headers: dict[str, str], **params: str
) -> dict[str, Any]:
    response = await client.get("/api/backoffice/dashboard", params=params, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def manual(app: FastAPI, member: int, amount: int) -> None:
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, member)
        assert row is not None
        await credit_manually(session, member=row, amount=amount, note="test", actor="test")
        await session.commit()


async def gateway_deposit(client: httpx.AsyncClient, token: str, code: str, amount: float) -> None:
    state = (await create(client, token, code, amount)).json()
    paid = await client.post("/sandbox/gateways/pay", json={"payload": state["payload"]})
    assert paid.json()["callbacks"] == [200], paid.text


def channels(body: dict[str, Any]) -> dict[str, tuple[int, float]]:
    return {c["channel"]: (c["count"], c["sum"]) for c in body["deposits"]["byChannel"]}


def bangkok_today() -> str:
    return (utcnow() + BANGKOK).date().isoformat()


async def test_figures_equal_what_was_moved(client: httpx.AsyncClient, app: FastAPI) -> None:
    await seed_receiving_accounts_committed(app)
    await open_slips(client)
    headers = await viewer(app)
    before = await dashboard(client, headers)
    assert before["currency"] == "THB"
    assert before["deposits"]["count"] == 0
    assert [c["channel"] for c in before["deposits"]["byChannel"]] == [
        "slip",
        "WW",
        "PAYTIMZ",
        "PAYONEX",
        "bank_qr",
        "truemoney",
        "manual",
    ]

    # A slip of 500.25, and a second slip refused (someone else's account): a slip to review.
    slip_token, account = await slip_member(client)
    transfer = await bank_transfer(client, from_account=account, amount=500.25)
    assert (await upload(client, slip_token, await slip_of(client, transfer))).json()["code"] == (
        "SUCCESS"
    )
    stranger = await bank_transfer(client, from_account="9998887776", amount=80)
    refused = await upload(client, slip_token, await slip_of(client, stranger))
    assert refused.json()["reason"] == "NOT_MATCH"
    # The three gateways, each through its sandbox and signed callback.
    _, qr_token = await register_and_login(client)
    for code, amount in (("WW", 150), ("PAYTIMZ", 10.5), ("PAYONEX", 100)):
        await gateway_deposit(client, qr_token, code, amount)
    # KBANK QR paid by a bank notification; and a transfer that matches nobody.
    kbank = (await create(client, qr_token, "KBANK", 200)).json()
    assert (await notify(client, amount=kbank["amount"], payload=kbank["payload"])).json()[
        "outcome"
    ] == "CREDITED"
    assert (await notify(client, amount=77)).json()["outcome"] == "UNMATCHED"
    # TrueMoney.
    _, tm_token = await register_and_login(client)
    assert (await send(client, tm_token, await mint(client, 50.25))).status_code == 200
    # Manual credit of 1000, of which 300 is withdrawn and paid, and 200 waits in the queue.
    _, cash_token = await register_and_login(client)
    cash_id = await member_id(client, cash_token)
    await manual(app, cash_id, 1000_00)
    async with app.state.sessionmaker() as session:
        member = await session.get(Member, cash_id)
        assert member is not None
        paid = await request_withdrawal(session, member=member, amount=300_00)
        await request_withdrawal(session, member=member, amount=200_00)
        await approve_withdrawal(session, withdrawal_id=paid.id, actor="test")
        await session.commit()
    # A bonus (100 % of a 200 deposit, capped at 150); the deposit posts from the manual
    # account, so the figures count it in the manual channel.
    await add_bonus(app, max_amount=150_00)
    player = await new_player(client)
    await deposit(app, player.id, 200_00)
    granted = await client.get("/api/bonus/activate/WELCOME", headers=player.headers)
    assert granted.status_code == 200, granted.text
    assert await wallet_amount(client, player) == 350

    body = await dashboard(client, headers)
    today = bangkok_today()
    assert (body["from"], body["to"]) == (today, today)
    assert channels(body) == {
        "slip": (1, 500.25),
        "WW": (1, 150),
        "PAYTIMZ": (1, 10.5),
        "PAYONEX": (1, 100),
        "bank_qr": (1, 200),
        "truemoney": (1, 50.25),
        "manual": (2, 1200),
    }
    deposits = 500.25 + 150 + 10.5 + 100 + 200 + 50.25 + 1200
    assert body["deposits"]["count"] == 8
    assert body["deposits"]["sum"] == pytest.approx(deposits)
    assert body["withdrawals"] == {"count": 1, "sum": 300}
    assert body["net"] == pytest.approx(deposits - 300)
    assert body["bonusesPaid"] == 150
    # Money received by hand (pao ops deposit) is a deposit; no goodwill was given.
    assert body["manualAdjustments"] == {"credit": 0, "debit": 0}
    # Five members registered today, each of them credited.
    assert body["members"] == {"total": 5, "new": 5, "newDeposited": 5}
    assert body["series"] == [
        {"date": today, "deposits": pytest.approx(deposits), "withdrawals": 300, "newMembers": 5}
    ]
    assert body["providerFloats"] == []
    queues = {
        "withdrawalsPending": 1,
        "slipsToReview": 1,
        "unmatchedPayments": 1,
        "adjustmentsAwaiting": 0,
    }
    assert body["queues"] == queues
    assert await live_queues(client, headers) == queues

    # The queues follow the review states, not the reasons: a slip the bank does not know
    # (INVALID_SLIP) waits too; approving one and rejecting the other empties the count, and
    # matching the payment by hand takes it out of the unmatched count.
    unknown = await upload(client, slip_token, slip_png(slip_payload("004", "NOSUCHREF123")))
    assert unknown.json()["reason"] == "INVALID_SLIP"
    assert (await live_queues(client, headers))["slipsToReview"] == 2
    cashier = bearer(await open_token(app, await add_staff(app, role=Role.CASHIER)))
    review = "/api/backoffice/deposits/slips"
    approved = await client.post(
        f"{review}/{refused.json()['slip']['_id']}/approve",
        headers=cashier | {"Idempotency-Key": "approve-1"},
        json={"amount": 80},
    )
    assert approved.status_code == 200, approved.text
    assert (await live_queues(client, headers))["slipsToReview"] == 1
    rejected = await client.post(
        f"{review}/{unknown.json()['slip']['_id']}/reject",
        headers=cashier,
        json={"reason": "no such transfer"},
    )
    assert rejected.status_code == 200, rejected.text
    async with app.state.sessionmaker() as session:
        payment = (
            await session.execute(
                select(BankNotification.id).where(
                    BankNotification.outcome == PaymentOutcome.UNMATCHED
                )
            )
        ).scalar_one()
    matched = await client.post(
        f"/api/backoffice/deposits/unmatched/bank/{payment}/match",
        headers=cashier | {"Idempotency-Key": "match-1"},
        json={"memberId": cash_id, "note": "the member sent the bank's receipt"},
    )
    assert matched.status_code == 200, matched.text
    assert await live_queues(client, headers) == {
        "withdrawalsPending": 1,
        "slipsToReview": 0,
        "unmatchedPayments": 0,
        "adjustmentsAwaiting": 0,
    }
    assert (await dashboard(client, headers))["queues"]["slipsToReview"] == 0
    # A manual credit above the approval limit waits for a second staff member: counted.
    asked = await client.post(
        f"/api/backoffice/members/{cash_id}/adjustments",
        headers=cashier | {"Idempotency-Key": "big-credit"},
        json={"direction": "credit", "amount": 100_000, "reason": "goodwill"},
    )
    assert asked.json()["status"] == "AWAITING_APPROVAL", asked.text
    assert (await live_queues(client, headers))["adjustmentsAwaiting"] == 1


async def live_queues(client: httpx.AsyncClient, headers: dict[str, str]) -> dict[str, int]:
    live = await client.get("/api/backoffice/dashboard/queues", headers=headers)
    assert live.status_code == 200, live.text
    body: dict[str, int] = live.json()
    return body


async def seed_receiving_accounts_committed(app: FastAPI) -> None:
    async with app.state.sessionmaker() as session:
        await seed_receiving_accounts(session)
        await session.commit()


def move_clock_to(at: datetime) -> None:
    clock.advance(at - utcnow())


async def test_a_bangkok_day_runs_from_midnight_to_midnight(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await viewer(app)
    move_clock_to(datetime(2026, 11, 18, 3, 0, tzinfo=UTC))
    _, token = await register_and_login(client)
    member = await member_id(client, token)
    # 23:59:30 in Bangkok on 20 November is 16:59:30 UTC: it counts on the 20th.
    move_clock_to(datetime(2026, 11, 20, 16, 59, 30, tzinfo=UTC))
    await manual(app, member, 10_00)
    move_clock_to(datetime(2026, 11, 20, 17, 0, 30, tzinfo=UTC))  # 00:00:30 on the 21st
    await manual(app, member, 20_00)
    # 23:59 on the 22nd; the clock runs on from there, and a loaded machine took over a second
    # between the next requests when this said 23:59:59.
    move_clock_to(datetime(2026, 11, 22, 16, 59, tzinfo=UTC))

    first = await dashboard(client, headers, **{"from": "2026-11-20", "to": "2026-11-20"})
    assert (first["deposits"]["count"], first["deposits"]["sum"]) == (1, 10)
    second = await dashboard(client, headers, **{"from": "2026-11-21", "to": "2026-11-21"})
    assert (second["deposits"]["count"], second["deposits"]["sum"]) == (1, 20)
    # Without a range: today, the 22nd in Bangkok, when nothing moved.
    today = await dashboard(client, headers)
    assert (today["from"], today["deposits"]["count"]) == ("2026-11-22", 0)
    week = await dashboard(client, headers, **{"from": "2026-11-19", "to": "2026-11-22"})
    assert [(d["date"], d["deposits"]) for d in week["series"]] == [
        ("2026-11-19", 0),
        ("2026-11-20", 10),
        ("2026-11-21", 20),
        ("2026-11-22", 0),
    ]
    assert week["deposits"]["sum"] == 30
    # The member registered before the range: counted in total, not as new.
    assert week["members"] == {"total": 1, "new": 0, "newDeposited": 0}
    assert sum(d["newMembers"] for d in week["series"]) == 0


@pytest.mark.parametrize(
    ("params", "status"),
    [
        ({"from": "2026-11-21", "to": "2026-11-20"}, 400),  # from after to
        ({"from": "2025-01-01", "to": "2026-01-02"}, 400),  # 367 days
        ({"from": "2026-02-30"}, 422),
        ({"from": "yesterday"}, 422),
        ({"to": "2026-11-20T00:00:00"}, 422),
        ({"currency": "USD"}, 422),
    ],
)
async def test_bad_ranges_are_refused(
    client: httpx.AsyncClient, app: FastAPI, params: dict[str, str], status: int
) -> None:
    headers = await viewer(app)
    response = await client.get("/api/backoffice/dashboard", params=params, headers=headers)
    assert response.status_code == status, response.text
    assert response.json()["message"] == "KEY_INVALID"


async def test_a_year_and_a_day_is_the_longest_range(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await viewer(app)
    body = await dashboard(client, headers, **{"from": "2025-01-01", "to": "2026-01-01"})
    assert len(body["series"]) == 366
    assert body["series"][0]["date"] == date(2025, 1, 1).isoformat()


async def test_needs_a_staff_token(client: httpx.AsyncClient) -> None:
    for path in ("/api/backoffice/dashboard", "/api/backoffice/dashboard/queues"):
        response = await client.get(path)
        assert response.status_code == 401
        _, token = await register_and_login(client)
        member = await client.get(path, headers=bearer(token))
        assert member.status_code == 401


async def test_goodwill_credits_are_apart_from_deposits_and_the_net(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await viewer(app)
    _, token = await register_and_login(client)
    member = await member_id(client, token)
    await manual(app, member, 400_00)  # received by hand: a deposit (ADR 0010)
    manager = bearer(await open_token(app, await add_staff(app, role=Role.MANAGER)))
    for key, direction, amount in (("gw-1", "credit", 250), ("gw-2", "debit", 50)):
        made = await client.post(
            f"/api/backoffice/members/{member}/adjustments",
            headers=manager | {"Idempotency-Key": key},
            json={"direction": direction, "amount": amount, "reason": "goodwill, ticket 7"},
        )
        assert made.json()["status"] == "POSTED", made.text

    body = await dashboard(client, headers)
    assert body["deposits"]["count"] == 1
    assert body["deposits"]["sum"] == 400
    assert channels(body)["manual"] == (1, 400)
    assert body["net"] == 400
    assert body["manualAdjustments"] == {"credit": 250, "debit": 50}
    assert body["series"][0]["deposits"] == 400
    # A goodwill credit makes no depositor: the member deposited by hand, so counted once.
    assert body["members"]["newDeposited"] == 1


async def test_each_figure_comes_with_the_period_before(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await viewer(app)
    # 18 November (Bangkok): one member, 300 deposited and 100 paid out.
    move_clock_to(datetime(2026, 11, 18, 3, 0, tzinfo=UTC))
    _, token = await register_and_login(client)
    yesterday_member = await member_id(client, token)
    await manual(app, yesterday_member, 300_00)
    async with app.state.sessionmaker() as session:
        row = await session.get(Member, yesterday_member)
        assert row is not None
        paid = await request_withdrawal(session, member=row, amount=100_00)
        await approve_withdrawal(session, withdrawal_id=paid.id, actor="test")
        await session.commit()
    # The 19th: another member deposits 500.
    move_clock_to(datetime(2026, 11, 19, 3, 0, tzinfo=UTC))
    _, token = await register_and_login(client)
    await manual(app, await member_id(client, token), 500_00)

    body = await dashboard(client, headers)
    assert (body["from"], body["to"]) == ("2026-11-19", "2026-11-19")
    previous = body["previous"]
    assert (previous["from"], previous["to"]) == ("2026-11-18", "2026-11-18")
    assert previous["deposits"] == {"count": 1, "sum": 300}
    assert previous["withdrawals"] == {"count": 1, "sum": 100}
    assert previous["net"] == 200
    assert (previous["membersNew"], previous["membersNewDeposited"]) == (1, 1)
    assert previous["manualAdjustments"] == {"credit": 0, "debit": 0}
    assert (body["deposits"]["sum"], body["net"]) == (500, 500)

    # A week: the seven days before it.
    week = await dashboard(client, headers, **{"from": "2026-11-13", "to": "2026-11-19"})
    assert (week["previous"]["from"], week["previous"]["to"]) == ("2026-11-06", "2026-11-12")
    assert week["deposits"]["sum"] == 800
    assert week["previous"]["deposits"]["sum"] == 0
    # The day after: the 19th is now the period before.
    after = await dashboard(client, headers, **{"from": "2026-11-20", "to": "2026-11-20"})
    assert after["previous"]["deposits"] == {"count": 1, "sum": 500}


async def test_the_currencies_with_wallets_can_be_switched(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    headers = await viewer(app)
    _, token = await register_and_login(client)
    thb = await dashboard(client, headers)
    assert (thb["currency"], thb["currencies"]) == ("THB", ["THB"])
    async with app.state.sessionmaker() as session:
        member = await session.get(Member, await member_id(client, token))
        assert member is not None
        member.currency = "LAK"  # a kip wallet, as on a Lao server
        await session.commit()
    _, token = await register_and_login(client)
    await manual(app, await member_id(client, token), 1000)
    both = await dashboard(client, headers)
    assert both["currencies"] == ["LAK", "THB"]
    lak = await dashboard(client, headers, currency="LAK")
    assert lak["currency"] == "LAK"
    assert lak["deposits"]["sum"] == 0
    assert (await dashboard(client, headers, currency="THB"))["deposits"]["sum"] == 10
