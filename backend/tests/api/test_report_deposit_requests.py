"""Deposit requests by channel, bank and status, and their time to credit (the payments report),
on both databases with known rows: slips in every status and review, bank QR codes and gateway
orders paid, late, expired or open, TrueMoney vouchers credited or refused; a request of another
currency or before the range is left out; the CSV says what the screen says."""

from __future__ import annotations

import csv
import io
from datetime import date, datetime, timedelta
from typing import Any

import httpx
from fastapi import FastAPI

from pao.backoffice.staff.roles import Role
from pao.kit.clock import utcnow
from pao.kit.money import Currency
from pao.ledger.models import AccountKind
from pao.ledger.service import get_or_open_account, player_wallet, transfer
from pao.payments.accounts import ReceivingAccount, ReceivingKind, ReceivingMode
from pao.payments.qr.models import QrDeposit, QrStatus
from pao.payments.slips.models import Slip, SlipReview, SlipStatus
from pao.payments.truemoney.models import RedemptionStatus, VoucherRedemption
from tests.api.test_backoffice_dashboard import bangkok_today
from tests.api.test_backoffice_reports import REPORTS, staff
from tests.helpers import member_id, register_and_login


def _slip(
    member: int,
    created: datetime,
    status: SlipStatus,
    *,
    bank: str | None = None,
    amount: int = 0,
    review: SlipReview | None = None,
    wait: int | None = None,
    currency: Currency = Currency.THB,
) -> Slip:
    n = created.timestamp()
    return Slip(
        member_id=member,
        status=status,
        file_key=f"slips/{n}",
        image_sha256=f"{n:064.0f}"[-64:],
        receiver_bank=bank,
        amount=amount,
        currency=currency,
        review_status=review,
        created_at=created,
        settled_at=None if wait is None else created + timedelta(seconds=wait),
    )


def _qr(
    member: int,
    account: ReceivingAccount,
    created: datetime,
    status: QrStatus,
    amount: int,
    *,
    wait: int | None = None,
) -> QrDeposit:
    return QrDeposit(
        member_id=member,
        channel=account.code,
        is_gateway=account.kind == ReceivingKind.GATEWAY,
        account_id=account.id,
        requested_amount=amount,
        amount=amount,
        currency=Currency.THB,
        status=status,
        payload="payload",
        order_ref=f"Q{created.timestamp():.0f}",
        expires_at=created + timedelta(minutes=15),
        created_at=created,
        paid_at=None if wait is None else created + timedelta(seconds=wait),
    )


async def _seed(app: FastAPI, member: int) -> None:
    now = utcnow().replace(microsecond=0)

    def ago(minutes: int) -> datetime:
        return now - timedelta(minutes=minutes)

    async with app.state.sessionmaker() as session:
        kbank = ReceivingAccount(
            kind=ReceivingKind.BANK, code="KBANK", mode=ReceivingMode.AUTO, currency=Currency.THB
        )
        ww = ReceivingAccount(kind=ReceivingKind.GATEWAY, code="WW", currency=Currency.THB)
        session.add_all([kbank, ww])
        await session.flush()
        session.add_all(
            [
                _slip(member, ago(180), SlipStatus.SUCCESS, bank="KBANK", amount=500_00, wait=60),
                # Refused by the bank check, then approved by staff: credited on approval.
                _slip(
                    member,
                    ago(170),
                    SlipStatus.SUCCESS,
                    bank="KBANK",
                    amount=300_00,
                    review=SlipReview.APPROVED,
                    wait=180,
                ),
                _slip(member, ago(160), SlipStatus.FAILED, review=SlipReview.OPEN),
                _slip(member, ago(150), SlipStatus.FAILED, review=SlipReview.OPEN),
                _slip(
                    member,
                    ago(140),
                    SlipStatus.FAILED,
                    bank="SCB",
                    amount=120_00,
                    review=SlipReview.REJECTED,
                ),
                _slip(member, ago(130), SlipStatus.PENDING),
                # Another currency, and before the range: not counted.
                _slip(
                    member,
                    ago(120),
                    SlipStatus.SUCCESS,
                    bank="BCEL",
                    amount=90_000_00,
                    wait=5,
                    currency=Currency.LAK,
                ),
                _slip(
                    member, ago(60 * 24 * 40), SlipStatus.SUCCESS, bank="KBANK", amount=1, wait=1
                ),
                _qr(member, kbank, ago(110), QrStatus.PAID, 100_37, wait=30),
                _qr(member, kbank, ago(100), QrStatus.EXPIRED, 200_00),
                _qr(member, kbank, ago(90), QrStatus.PAID, 150_12, wait=90),
                _qr(member, ww, ago(80), QrStatus.PAID_LATE, 500_00, wait=1200),
                _qr(member, ww, ago(70), QrStatus.PENDING, 50_00),
                VoucherRedemption(
                    voucher_hash="refused",
                    member_id=member,
                    status=RedemptionStatus.FAILED,
                    amount=None,
                    currency=Currency.THB,
                    created_at=ago(50),
                ),
            ]
        )
        # A credited voucher: its credit is a journal entry, 42 s after the voucher came in.
        entry = await transfer(
            session,
            source=await get_or_open_account(
                session,
                kind=AccountKind.WALLET_PROVIDER_CLEARING,
                currency=Currency.THB,
                member_id=member,
            ),
            destination=await player_wallet(session, member_id=member, currency=Currency.THB),
            amount=75_50,
            kind="deposit",
            actor="test",
        )
        session.add(
            VoucherRedemption(
                voucher_hash="credited",
                member_id=member,
                status=RedemptionStatus.CREDITED,
                amount=75_50,
                currency=Currency.THB,
                entry_id=entry.id,
                created_at=entry.created_at - timedelta(seconds=42),
            )
        )
        await session.commit()


def _week() -> dict[str, str]:
    """The last 7 operator days: the seeded rows go back 3 hours, which may be yesterday."""
    today = date.fromisoformat(bangkok_today())
    return {"from": (today - timedelta(days=6)).isoformat(), "to": today.isoformat()}


async def _get(
    client: httpx.AsyncClient, headers: dict[str, str], path: str, **params: str
) -> httpx.Response:
    response = await client.get(f"{REPORTS}/{path}", params={**_week(), **params}, headers=headers)
    assert response.status_code == 200, response.text
    return response


async def _tables(
    client: httpx.AsyncClient, headers: dict[str, str], **params: str
) -> dict[str, list[tuple[Any, ...]]]:
    body = (await _get(client, headers, "payments", **params)).json()
    return {table["name"]: [tuple(row) for row in table["rows"]] for table in body["tables"]}


async def _csv(client: httpx.AsyncClient, headers: dict[str, str], path: str) -> list[list[str]]:
    response = await _get(client, headers, path)
    assert response.headers["content-type"].startswith("text/csv")
    return list(csv.reader(io.StringIO(response.text)))


async def test_deposit_requests_by_channel_bank_and_status(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    _, token = await register_and_login(client)
    await _seed(app, await member_id(client, token))
    viewer = await staff(app, Role.VIEWER)
    tables = await _tables(client, viewer)
    body = (await _get(client, viewer, "payments")).json()
    columns = {t["name"]: [c["key"] for c in t["columns"]] for t in body["tables"]}
    assert columns["deposits"] == ["channel", "bank", "status", "review", "count", "sum"]
    assert columns["deposit_time"] == ["channel", "credited", "mean", "p50", "p95", "max"]

    # In the channels' order (slip, gateways, bank QR, TrueMoney), then bank, status, review.
    assert tables["deposits"] == [
        ("slip", "", "FAILED", "OPEN", 2, 0),
        ("slip", "", "PENDING", "", 1, 0),
        ("slip", "KBANK", "SUCCESS", "", 1, 500),
        ("slip", "KBANK", "SUCCESS", "APPROVED", 1, 300),
        ("slip", "SCB", "FAILED", "REJECTED", 1, 120),
        ("WW", "", "PAID_LATE", "", 1, 500),
        ("WW", "", "PENDING", "", 1, 50),
        ("bank_qr", "KBANK", "EXPIRED", "", 1, 200),
        ("bank_qr", "KBANK", "PAID", "", 2, 250.49),
        ("truemoney", "", "CREDITED", "", 1, 75.5),
        ("truemoney", "", "FAILED", "", 1, 0),
    ]
    # Credited requests only: (channel, credited, mean, p50, p95, max) in seconds.
    assert tables["deposit_time"] == [
        ("slip", 2, 120, 60, 180, 180),
        ("WW", 1, 1200, 1200, 1200, 1200),
        ("bank_qr", 2, 60, 30, 90, 90),
        ("truemoney", 1, 42, 42, 42, 42),
    ]
    # Kip: only the LAK slip.
    lak = await _tables(client, viewer, currency="LAK")
    assert lak["deposits"] == [("slip", "BCEL", "SUCCESS", "", 1, 90_000)]
    assert lak["deposit_time"] == [("slip", 1, 5, 5, 5, 5)]

    csv_rows = await _csv(client, viewer, "payments/deposits.csv")
    assert csv_rows[0] == ["channel", "bank", "status", "review", "count", "sum"]
    assert ["bank_qr", "KBANK", "PAID", "", "2", "250.49"] in csv_rows
    assert len(csv_rows) == 12
    timing = await _csv(client, viewer, "payments/deposit_time.csv")
    assert timing[1] == ["slip", "2", "120", "60", "180", "180"]


async def test_no_deposit_requests(client: httpx.AsyncClient, app: FastAPI) -> None:
    tables = await _tables(client, await staff(app, Role.VIEWER))
    assert tables["deposits"] == []
    assert tables["deposit_time"] == []
