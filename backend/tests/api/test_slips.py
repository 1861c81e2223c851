"""Slip deposits through the API, from a sandbox bank transfer to a credited wallet.

Every rejection code, exactly-once crediting under concurrent uploads, idempotent retries and
owner-only access to slip images; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from prometheus_client import REGISTRY
from sqlalchemy import event, func, select
from sqlalchemy.orm import Session

from pao.kit.clock import clock
from pao.kit.money import Currency
from pao.kit.states import StatusChange
from pao.ledger.models import AccountKind, JournalEntry
from pao.ledger.service import check_books, get_or_open_account, player_wallet
from pao.payments.accounts import ReceivingAccount, ReceivingKind, ReceivingMode
from pao.payments.slips import service
from pao.payments.slips.jobs import reconcile_tick
from pao.payments.slips.models import REVIEWABLE_REASONS, Slip, SlipClaim, SlipStatus
from pao.payments.slips.verifier import PaoSlipVerifier
from pao.site import settings as site_settings
from pao.site.settings import load_site_settings
from pao.wallet.models import Statement
from tests.helpers import (
    app_of,
    auth,
    member_id,
    new_bank_account_no,
    register_and_login,
    set_money_setting,
    set_site_setting,
)
from tests.slip_images import blank_png, slip_payload, slip_png

# Also on SQLite (tests/databases.py): slip deposit credits: money steps.
pytestmark = pytest.mark.sqlite

OPERATOR_BANK, OPERATOR_ACCOUNT = "SCB", "4441112223"


async def open_slips(client: httpx.AsyncClient) -> None:
    """An operator bank account, and the daily closed window switched off."""
    app = app_of(client)
    async with app.state.sessionmaker() as session:
        session.add(
            ReceivingAccount(
                kind=ReceivingKind.BANK,
                code=OPERATOR_BANK,
                mode=ReceivingMode.MANUAL,
                account_name="PAO CO LTD",
                account_no=OPERATOR_ACCOUNT,
            )
        )
        await session.commit()
    await set_site_setting(client, "slipClosedFrom", "00:00")
    await set_site_setting(client, "slipClosedTo", "00:00")


async def member(client: httpx.AsyncClient) -> tuple[str, str]:
    """(token, account no) of a new KBANK member."""
    account = new_bank_account_no()
    _, token = await register_and_login(client, bank_code="KBANK", bank_account_no=account)
    return token, account


async def bank_transfer(
    client: httpx.AsyncClient,
    *,
    from_account: str,
    amount: float = 500,
    from_bank: str = "KBANK",
    to_bank: str = OPERATOR_BANK,
    to_account: str = OPERATOR_ACCOUNT,
) -> dict[str, Any]:
    response = await client.post(
        "/sandbox/bank/api/transfers",
        json={
            "fromBank": from_bank,
            "fromAccount": from_account,
            "toBank": to_bank,
            "toAccount": to_account,
            "amount": amount,
        },
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def slip_of(client: httpx.AsyncClient, transfer: dict[str, Any]) -> bytes:
    response = await client.get(transfer["slipUrl"])
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    return response.content


async def upload(
    client: httpx.AsyncClient,
    token: str,
    data: bytes | None,
    *,
    key: str | None = None,
    filename: str = "slip.png",
) -> httpx.Response:
    headers = auth(token)
    if key is not None:
        headers["Idempotency-Key"] = key
    files = {"file": (filename, data, "image/png")} if data is not None else None
    return await client.post("/api/wallet/slip", headers=headers, files=files)


async def balance(client: httpx.AsyncClient, token: str) -> float:
    response = await client.get("/api/wallet", headers=auth(token))
    assert response.status_code == 200
    amount: float = response.json()["wallet"]["amount"]
    return amount


async def books_balanced(app: FastAPI) -> bool:
    async with app.state.sessionmaker() as session:
        return (await check_books(session)).balanced


def verifications(outcome: str, reason: str = "") -> float:
    """pao_slip_verifications_total{outcome, reason} in this process (the on-call's signal)."""
    labels = {"outcome": outcome, "reason": reason}
    return REGISTRY.get_sample_value("pao_slip_verifications_total", labels) or 0.0


async def test_slip_credits_the_wallet(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    transfer = await bank_transfer(client, from_account=account, amount=500.25)
    succeeded = verifications("SUCCESS")

    response = await upload(client, token, await slip_of(client, transfer))
    assert verifications("SUCCESS") == succeeded + 1

    assert response.status_code == 200, response.text
    body = response.json()
    assert body["code"] == "SUCCESS"
    assert body["status"] == "SUCCESS"
    assert body["reason"] is None
    assert body["slip"]["amount"] == 500.25
    assert body["slip"]["reference"] == transfer["reference"]
    assert await balance(client, token) == 500.25

    statements = await client.post("/api/statement", headers=auth(token), json={})
    line = statements.json()["statements"][0]
    assert (line["statementType"], line["status"], line["amount"]) == ("deposit", "SUCCESS", 500.25)

    slips = await client.post("/api/statement/slip", headers=auth(token), json={"page": 1})
    assert slips.status_code == 200
    assert slips.json()["total"] == 1
    row = slips.json()["slips"][0]
    assert (row["status"], row["note"], row["amount"]) == ("SUCCESS", None, 500.25)
    assert await books_balanced(app_of(client))


async def test_same_slip_twice_is_duplicated(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account, amount=100))

    assert (await upload(client, token, image)).json()["code"] == "SUCCESS"
    again = await upload(client, token, image)

    assert again.status_code == 200
    assert again.json()["code"] == "SLIP_UPLOAD_FAIL"
    assert again.json()["reason"] == "SLIP_REFNO_DUPLICATED"
    assert again.json()["slip"]["note"] == "SLIP_REFNO_DUPLICATED"
    assert await balance(client, token) == 100


async def test_concurrent_uploads_credit_once(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account, amount=300))

    results = await asyncio.gather(*(upload(client, token, image) for _ in range(4)))

    codes = sorted(r.json()["code"] for r in results)
    assert codes == ["SLIP_UPLOAD_FAIL"] * 3 + ["SUCCESS"]
    assert {r.json()["reason"] for r in results if r.json()["code"] != "SUCCESS"} == {
        "SLIP_REFNO_DUPLICATED"
    }
    assert await balance(client, token) == 300
    async with app_of(client).state.sessionmaker() as session:
        assert (await session.execute(select(func.count()).select_from(Statement))).scalar() == 1
        assert (await session.execute(select(func.count()).select_from(SlipClaim))).scalar() == 1
    assert await books_balanced(app_of(client))


async def test_idempotent_retry_returns_the_first_answer(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account, amount=200))

    first = await upload(client, token, image, key="intent-1")
    second = await upload(client, token, image, key="intent-1")
    concurrent = await asyncio.gather(
        *(upload(client, token, image, key="intent-1") for _ in range(2))
    )

    assert first.json()["code"] == "SUCCESS"
    for retry in (second, *concurrent):
        assert retry.status_code == 200
        assert retry.json() == first.json()
    assert await balance(client, token) == 200
    async with app_of(client).state.sessionmaker() as session:
        assert (await session.execute(select(func.count()).select_from(Slip))).scalar() == 1

    other = await slip_of(client, await bank_transfer(client, from_account=account, amount=10))
    reused = await upload(client, token, other, key="intent-1")
    assert reused.status_code == 409
    assert reused.json() == {"message": "IDEMPOTENCY_KEY_REUSED"}


async def _rejected(client: httpx.AsyncClient, token: str, data: bytes, reason: str) -> None:
    before = await balance(client, token)
    response = await upload(client, token, data)
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["code"], body["status"], body["reason"]) == ("SLIP_UPLOAD_FAIL", "FAILED", reason)
    assert body["slip"]["note"] == reason
    # A refusal that may still hide a real deposit goes to staff (the player is told so);
    # the others are final.
    assert body["slip"]["review"] == ("OPEN" if reason in REVIEWABLE_REASONS else None)
    assert await balance(client, token) == before


async def test_unreadable_slip(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, _ = await member(client)
    await _rejected(client, token, blank_png(), "CANNOT_READ_CROPPED_IMAGE")


async def test_bad_crc_is_unstable(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, _ = await member(client)
    payload = slip_payload("004", "20261121000000000077", crc="0000")
    await _rejected(client, token, slip_png(payload), "UNSTABLE_REFNO_ON_SLIP")


async def test_unknown_transfer_is_invalid(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, _ = await member(client)
    await _rejected(
        client, token, slip_png(slip_payload("004", "20261121999999999999")), "INVALID_SLIP"
    )


async def test_wrong_destination(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    transfer = await bank_transfer(client, from_account=account, to_account="9990001112")
    refused = verifications("FAILED", "DEST_ACC_INVALID")
    await _rejected(client, token, await slip_of(client, transfer), "DEST_ACC_INVALID")
    assert verifications("FAILED", "DEST_ACC_INVALID") == refused + 1


async def test_inactive_destination(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    async with app_of(client).state.sessionmaker() as session:
        for account in (await session.execute(select(ReceivingAccount))).scalars():
            account.active = False
        await session.commit()
    token, account = await member(client)
    transfer = await bank_transfer(client, from_account=account)
    await _rejected(client, token, await slip_of(client, transfer), "DEST_ACC_INVALID")


async def test_someone_elses_transfer_does_not_match(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, _ = await member(client)
    transfer = await bank_transfer(client, from_account="1234567890")
    await _rejected(client, token, await slip_of(client, transfer), "NOT_MATCH")
    # The claim was released: the rightful owner can still use the slip.
    _, owner = await register_and_login(client, bank_code="KBANK", bank_account_no="1234567890")
    assert (await upload(client, owner, await slip_of(client, transfer))).json()["code"] == (
        "SUCCESS"
    )


async def test_expired_slip(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account))
    clock.advance(timedelta(minutes=61))
    await _rejected(client, token, image, "EXPIRED_SLIP")


async def test_slip_within_the_hour_is_accepted(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account, amount=50))
    clock.advance(timedelta(minutes=59))
    assert (await upload(client, token, image)).json()["code"] == "SUCCESS"


async def test_below_minimum_deposit(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    await set_money_setting(client, "slipMinimumDeposit", THB=100_00)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account, amount=99.99))
    await _rejected(client, token, image, "BELOW_MINIMUM_DEPOSIT")


async def test_closed_window_refuses_upload(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    await set_site_setting(client, "slipClosedFrom", "00:00")
    await set_site_setting(client, "slipClosedTo", "23:59")
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account))
    response = await upload(client, token, image)
    # Unless the test runs in the one open minute (23:59 Bangkok), the window is closed.
    if response.status_code == 400:
        assert response.json() == {"message": "SLIP_UPLOAD_FAIL", "reason": "SLIP_UPLOAD_CLOSED"}
        async with app_of(client).state.sessionmaker() as session:
            assert (await session.execute(select(func.count()).select_from(Slip))).scalar() == 0
    else:
        assert response.json()["code"] == "SUCCESS"


@pytest.mark.parametrize(
    ("data", "status", "code"),
    [
        (None, 400, "SLIP_NO_FILE"),
        (b"", 400, "SLIP_NO_FILE"),
        (b"plain text, named slip.png", 400, "SLIP_INVALID_FILE"),
        (b"GIF89a" + b"\x00" * 100, 400, "SLIP_INVALID_FILE"),
        # Over 5 MB: the route reads 5 MB + 1 byte of it at most.
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * (5 * 1024 * 1024), 413, "SLIP_INVALID_FILE"),
        # Over 5 MB + 64 KiB: the edge refuses the body unread.
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * (6 * 1024 * 1024), 413, "SLIP_INVALID_FILE"),
    ],
)
async def test_file_refusals(
    client: httpx.AsyncClient, data: bytes | None, status: int, code: str
) -> None:
    await open_slips(client)
    token, _ = await member(client)
    response = await upload(client, token, data)
    assert response.status_code == status
    assert response.json() == {"message": code}
    async with app_of(client).state.sessionmaker() as session:
        assert (await session.execute(select(func.count()).select_from(Slip))).scalar() == 0


async def test_upload_needs_a_token(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/wallet/slip", files={"file": ("s.png", blank_png())})
    assert response.status_code == 401


async def test_slip_image_only_for_its_owner(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    transfer = await bank_transfer(client, from_account=account)
    image = await slip_of(client, transfer)
    await upload(client, token, image)

    found = await client.get(
        f"/api/statement/slip/reference/{transfer['reference']}", headers=auth(token)
    )
    assert found.status_code == 200
    url = found.json()["url"]
    fetched = await client.get(url, headers=auth(token))
    assert fetched.status_code == 200
    assert fetched.content == image
    assert fetched.headers["content-type"] == "image/png"
    # The slip shows the member's bank account: the browser does not keep it.
    assert fetched.headers["cache-control"] == "no-store"
    assert fetched.headers["x-content-type-options"] == "nosniff"

    stranger, _ = await member(client)
    assert (
        await client.get(
            f"/api/statement/slip/reference/{transfer['reference']}", headers=auth(stranger)
        )
    ).json() == {"message": "NO_DATA"}
    denied = await client.get(url, headers=auth(stranger))
    assert denied.status_code == 404
    assert (await client.get(url)).status_code == 401


async def test_slip_list_pages(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, _ = await member(client)
    for _ in range(3):
        await upload(client, token, blank_png())
    page = await client.post(
        "/api/statement/slip", headers=auth(token), json={"page": 2, "limit": 2}
    )
    assert page.json()["total"] == 3
    assert len(page.json()["slips"]) == 1
    assert page.json()["slips"][0]["amount"] == 0


async def test_bank_down_leaves_slip_pending_until_reconciled(client: httpx.AsyncClient) -> None:
    await open_slips(client)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account, amount=70))
    app = app_of(client)
    real_http = app.state.http
    app.state.http = httpx.AsyncClient(
        transport=httpx.MockTransport(lambda _: httpx.Response(503, json={"code": "DOWN"}))
    )
    try:
        response = await upload(client, token, image)
    finally:
        await app.state.http.aclose()
        app.state.http = real_http
    assert response.json()["code"] == "OK"
    assert response.json()["status"] == "PENDING"
    assert await balance(client, token) == 0

    assert await reconcile_tick(app) == 0  # not yet due
    clock.advance(timedelta(minutes=2))
    assert await reconcile_tick(app) == 1
    assert await balance(client, token) == 70
    assert await reconcile_tick(app) == 0
    async with app.state.sessionmaker() as session:
        slip = (await session.execute(select(Slip))).scalar_one()
        assert slip.status == SlipStatus.SUCCESS


@contextmanager
def commit_refused(nth: int) -> Iterator[None]:
    """The ``nth`` commit of a transaction holding a slip raises instead (the database went
    away at that moment): whatever the transaction wrote must be rolled back."""
    seen = 0

    def refuse(session: Session) -> None:
        nonlocal seen
        if session.in_nested_transaction():
            return  # a savepoint's release, not the transaction's commit
        if any(isinstance(obj, Slip) for obj in session.identity_map.values()):
            seen += 1
            if seen == nth:
                raise RuntimeError("commit refused")

    event.listen(Session, "before_commit", refuse)
    try:
        yield
    finally:
        event.remove(Session, "before_commit", refuse)


async def _count(app: FastAPI, model: Any, *where: Any) -> int:
    async with app.state.sessionmaker() as session:
        query = select(func.count()).select_from(model).where(*where)
        return int((await session.execute(query)).scalar_one())


@pytest.mark.parametrize("transaction", [1, 2])
async def test_a_transaction_that_does_not_commit_leaves_nothing(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch, transaction: int
) -> None:
    """The saga's statements run on the driver (pao.core.executor), the first of each
    transaction a raw one (transaction 1 without an Idempotency-Key: the slip's INSERT; 2:
    the slip's lock): a transaction that fails to commit leaves none of its writes behind.
    Refused in 1: no slip, no claim, the same slip can be uploaded again. Refused in 2 (after
    the ledger entry, the status change, the slip's row, the statement line): the slip stays
    PENDING as transaction 1 left it, its claim held, no money moved; the reconciler credits it
    once."""
    await open_slips(client)
    app = app_of(client)
    token, account = await member(client)
    image = await slip_of(client, await bank_transfer(client, from_account=account, amount=40))
    owner = await member_id(client, token)
    # As on a running server: the settings cached and the member's accounts open, so that no
    # statement through SQLAlchemy (which would open the driver's transaction itself) comes
    # before the raw ones.
    monkeypatch.setattr(site_settings, "CACHE_SECONDS", 3600.0)
    async with app.state.sessionmaker() as session:
        await load_site_settings(session)
        await get_or_open_account(
            session, kind=AccountKind.BANK_CLEARING, currency=Currency.THB, member_id=owner
        )
        await player_wallet(session, member_id=owner, currency=Currency.THB)
        await session.commit()
    # Not through HTTP: the refused commit's exception comes straight back here.
    ctx = service.SlipContext(
        sessionmaker=app.state.sessionmaker,
        verifier=PaoSlipVerifier(app.state.http, app.state.settings),
        file_store=app.state.file_store,
    )

    async with app.state.sessionmaker() as session:
        with commit_refused(transaction), pytest.raises(RuntimeError, match="commit refused"):
            await service.upload_slip(
                ctx,
                session,
                member_id=owner,
                currency=Currency.THB,
                data=image,
                idempotency_key=None,
            )

    assert await balance(client, token) == 0
    assert await _count(app, JournalEntry, JournalEntry.kind == "deposit") == 0
    assert await _count(app, Statement) == 0
    assert await _count(app, StatusChange, StatusChange.entity == "slips") == 0
    assert await books_balanced(app)
    if transaction == 1:
        assert await _count(app, Slip) == 0
        assert await _count(app, SlipClaim) == 0
        assert (await upload(client, token, image)).json()["code"] == "SUCCESS"
    else:
        async with app.state.sessionmaker() as session:
            slip = (await session.execute(select(Slip))).scalar_one()
        assert (slip.status, slip.amount, slip.bank_lookup) == (SlipStatus.PENDING, 0, None)
        assert await _count(app, SlipClaim) == 1
        clock.advance(timedelta(minutes=2))
        assert await reconcile_tick(app) == 1
    assert await balance(client, token) == 40
    assert await _count(app, JournalEntry, JournalEntry.kind == "deposit") == 1
    assert await books_balanced(app)
