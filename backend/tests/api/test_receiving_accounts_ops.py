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
    ("kind", "mode", "extra"),
    [
        (ReceivingKind.BANK, ReceivingMode.AUTO, {}),  # AUTO needs a PromptPay id
        (ReceivingKind.BANK, ReceivingMode.AUTO, {"promptpay_id": "12345"}),
        (ReceivingKind.BANK, ReceivingMode.AUTO, {"currency": Currency.LAK}),
        (ReceivingKind.GATEWAY, ReceivingMode.MANUAL, {}),
        (ReceivingKind.TRUEMONEY, ReceivingMode.MANUAL, {}),
        (ReceivingKind.BANK, ReceivingMode.GIFT_LINK, {}),
    ],
)
async def test_add_refusals(
    session: AsyncSession, kind: ReceivingKind, mode: ReceivingMode, extra: dict[str, object]
) -> None:
    with pytest.raises(ValueError, match=r".+"):
        await add_account(session, kind=kind, code="X", mode=mode, **extra)  # type: ignore[arg-type]


async def test_seed_is_idempotent_and_lao_adds_bcel(session: AsyncSession) -> None:
    first = await seed_receiving_accounts(session)
    assert len(first) == 6
    assert await seed_receiving_accounts(session) == []
    lao = await seed_receiving_accounts(session, lao_mode=True)
    assert lao == ["receiving account BCEL (AUTO) added"]
    await session.commit()
