"""Receiving accounts as operators manage them (the functions behind ``pao ops accounts``),
and the demo seed (idempotent, Lao mode adds BCEL)."""

from __future__ import annotations

import httpx
import pytest
from sqlalchemy.ext.asyncio import AsyncSession

from pao.kit.money import Currency
from pao.ops.accounts import list_lines
from pao.payments.accounts import (
    ReceivingKind,
    ReceivingMode,
    add_account,
    disable_account,
    seed_receiving_accounts,
)
from pao.payments.exceptions import ReceivingAccountInvalid


async def test_add_list_disable(client: httpx.AsyncClient, session: AsyncSession) -> None:
    account = await add_account(
        session,
        kind=ReceivingKind.BANK,
        code="gsb",
        mode=ReceivingMode.MANUAL,
        account_name="PAO CO",
        account_no="020012345678",
    )
    await session.commit()
    lines = await list_lines(session)
    await session.commit()  # end the read transaction (SQLite: one writer at a time)
    assert any("GSB" in line and "020012345678" in line and "active" in line for line in lines)
    codes = [b["bankCode"] for b in (await client.get("/api/lookup/deposit")).json()["banks"]]
    assert codes == ["GSB"]
    await disable_account(session, account_id=account.id)
    await session.commit()
    assert (await client.get("/api/lookup/deposit")).json()["banks"] == []
    assert "disabled" in (await list_lines(session))[0]


@pytest.mark.parametrize(
    ("kind", "code", "mode", "extra", "field"),
    [
        (ReceivingKind.BANK, "KBANK", ReceivingMode.AUTO, {}, "promptpayId"),
        (ReceivingKind.BANK, "KBANK", ReceivingMode.AUTO, {"promptpay_id": "12345"}, "promptpayId"),
        (
            ReceivingKind.BANK,
            "BCEL",
            ReceivingMode.AUTO,
            {"currency": Currency.LAK},
            "laoReceiverId",
        ),
        (ReceivingKind.BANK, "KBANK", ReceivingMode.MANUAL, {"currency": Currency.LAK}, "currency"),
        (ReceivingKind.BANK, "NOPE", ReceivingMode.MANUAL, {}, "code"),
        (ReceivingKind.GATEWAY, "WW", ReceivingMode.MANUAL, {}, "mode"),
        (ReceivingKind.GATEWAY, "XPAY", ReceivingMode.AUTO, {}, "code"),
        (ReceivingKind.TRUEMONEY, "TRUEMONEY", ReceivingMode.MANUAL, {}, "mode"),
        (ReceivingKind.BANK, "KBANK", ReceivingMode.GIFT_LINK, {}, "mode"),
    ],
)
async def test_add_refusals(
    session: AsyncSession,
    kind: ReceivingKind,
    code: str,
    mode: ReceivingMode,
    extra: dict[str, object],
    field: str,
) -> None:
    extra = {"account_no": "0481234567", **extra}
    with pytest.raises(ReceivingAccountInvalid) as refused:
        await add_account(session, kind=kind, code=code, mode=mode, **extra)  # type: ignore[arg-type]
    assert refused.value.extra == {"field": field}


async def test_seed_is_idempotent_and_lao_adds_bcel(session: AsyncSession) -> None:
    first = await seed_receiving_accounts(session)
    assert len(first) == 6
    assert await seed_receiving_accounts(session) == []
    lao = await seed_receiving_accounts(session, lao_mode=True)
    assert lao == ["receiving account BCEL (AUTO) added"]
    await session.commit()
