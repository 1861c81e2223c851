"""The sandbox TrueMoney gift-voucher service: mint vouchers (links) for tests and people, and
answer verify / redeem like the real API (see :mod:`pao.payments.truemoney.adapter`).

``POST /sandbox/truemoney/vouchers {amount}`` → ``{link, voucherHash, amount}``;
``GET /sandbox/truemoney`` is a tiny page with a "create gift link" form. A voucher is redeemed
once; redeeming again to the same wallet answers SUCCESS again, to another → VOUCHER_OUT_OF_STOCK.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import BigInteger, Integer, String, select
from sqlalchemy.orm import Mapped, mapped_column

from pao.core.db import UtcDateTime
from pao.core.params import RequestModel
from pao.core.uow import UnitOfWorkRoute
from pao.kit.clock import utcnow
from pao.payments.gateways.base import minor_to_major_text
from pao.sandbox.store import SandboxBase, SandboxSessionDep

router = APIRouter(route_class=UnitOfWorkRoute)
OPTS: dict[str, Any] = {"include_in_schema": False, "tags": ["sandbox"]}
VOUCHER_DAYS = 7


class SandboxVoucher(SandboxBase):
    __tablename__ = "sandbox_truemoney_vouchers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    voucher_hash: Mapped[str] = mapped_column(String(64), unique=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    redeemed_by: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)


class MintIn(RequestModel):
    model_config = ConfigDict(populate_by_name=True)

    amount: Decimal = Field(gt=0, le=100_000, decimal_places=2)
    expired: bool = False  # mint an already expired voucher (tests)


class VoucherIn(BaseModel):
    mobile: str = Field(min_length=1, max_length=20)
    voucher_hash: str = Field(min_length=1, max_length=64)


@router.post("/sandbox/truemoney/vouchers", **OPTS)
async def mint(body: MintIn, session: SandboxSessionDep) -> JSONResponse:
    voucher_hash = secrets.token_hex(16)
    now = utcnow()
    voucher = SandboxVoucher(
        voucher_hash=voucher_hash,
        amount=int(body.amount * 100),
        expires_at=now - timedelta(seconds=1) if body.expired else now + timedelta(VOUCHER_DAYS),
    )
    session.add(voucher)
    await session.commit()
    link = f"https://gift.truemoney.com/campaign/?v={voucher_hash}"
    return JSONResponse(
        {"link": link, "voucherHash": voucher_hash, "amount": float(body.amount)}, status_code=201
    )


def _answer(code: str, voucher: SandboxVoucher | None = None, status: int = 400) -> JSONResponse:
    data = None
    if voucher is not None:
        data = {"voucher": {"amount_baht": minor_to_major_text(voucher.amount)}}
    return JSONResponse({"status": {"code": code}, "data": data}, status_code=status)


async def _voucher(session: SandboxSessionDep, voucher_hash: str) -> SandboxVoucher | None:
    query = select(SandboxVoucher).where(SandboxVoucher.voucher_hash == voucher_hash)
    return (await session.execute(query)).scalar_one_or_none()


def _refusal(voucher: SandboxVoucher | None, mobile: str) -> str | None:
    if voucher is None:
        return "VOUCHER_NOT_FOUND"
    if voucher.redeemed_by is not None and voucher.redeemed_by != mobile:
        return "VOUCHER_OUT_OF_STOCK"
    if voucher.redeemed_by is None and voucher.expires_at <= utcnow():
        return "VOUCHER_EXPIRED"
    return None


@router.post("/sandbox/truemoney/campaign/vouchers/{voucher_hash}/verify", **OPTS)
async def verify(voucher_hash: str, body: VoucherIn, session: SandboxSessionDep) -> JSONResponse:
    voucher = await _voucher(session, voucher_hash)
    refusal = _refusal(voucher, body.mobile)
    if refusal is not None:
        return _answer(refusal)
    return _answer("SUCCESS", voucher, 200)


@router.post("/sandbox/truemoney/campaign/vouchers/{voucher_hash}/redeem", **OPTS)
async def redeem(voucher_hash: str, body: VoucherIn, session: SandboxSessionDep) -> JSONResponse:
    voucher = await _voucher(session, voucher_hash)
    refusal = _refusal(voucher, body.mobile)
    if refusal is not None or voucher is None:
        return _answer(refusal or "VOUCHER_NOT_FOUND")
    voucher.redeemed_by = body.mobile
    await session.commit()
    return _answer("SUCCESS", voucher, 200)


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox TrueMoney</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:1rem auto;padding:0 1rem}
label,input,button,output{display:block;margin:.4rem 0;font-size:1rem}
input{padding:.4rem;width:100%}button{padding:.5rem 1rem}
output{word-break:break-all;background:#f4f4f4;padding:.5rem;min-height:1.5rem}</style>
</head><body><main>
<h1>Sandbox TrueMoney</h1>
<p>Mint a gift voucher and paste its link into the deposit modal.</p>
<form id="mint">
<label for="amount">Amount (baht)</label>
<input id="amount" name="amount" type="number" min="0.01" step="0.01" value="50" required>
<button type="submit">Create gift link</button>
</form>
<label for="link">Gift link</label>
<output id="link" aria-live="polite"></output>
</main>
<script>
document.getElementById('mint').addEventListener('submit', async (event) => {
  event.preventDefault();
  const amount = Number(document.getElementById('amount').value);
  const response = await fetch('/sandbox/truemoney/vouchers', {
    method: 'POST', headers: {'Content-Type': 'application/json'},
    body: JSON.stringify({amount}),
  });
  const data = await response.json();
  document.getElementById('link').textContent = response.ok ? data.link : 'error';
});
</script></body></html>
"""


@router.get("/sandbox/truemoney", **OPTS)
async def page(request: Request) -> HTMLResponse:
    return HTMLResponse(PAGE)
