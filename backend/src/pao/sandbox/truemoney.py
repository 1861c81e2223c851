"""The sandbox TrueMoney gift-voucher service: mint vouchers (links) for tests and people, and
answer verify / redeem in the format used in the wild (providers.md §7; see
:mod:`pao.payments.truemoney.adapter`).

``POST /sandbox/truemoney/vouchers {amount, shares?, type? F|R, ownerMobile?, expired?}`` →
``{link, voucherHash, amount}``; ``GET /sandbox/truemoney`` is a tiny page with a "create gift
link" form. Each mobile takes one share (random amounts for ``R``); the same mobile again →
``TARGET_USER_REDEEMED``, every share taken → ``VOUCHER_OUT_OF_STOCK``, the owner →
``CANNOT_GET_OWN_VOUCHER``. ``POST /sandbox/truemoney/faults {action, answer, count}`` queues
Cloudflare pages, lost answers or other codes for the next calls.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, BigInteger, Integer, String, UniqueConstraint, select
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


class SandboxEnvelope(SandboxBase):
    """A gift voucher: ``shares`` people may each take one share (``splits``, fixed at mint)."""

    __tablename__ = "sandbox_truemoney_envelopes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    voucher_hash: Mapped[str] = mapped_column(String(64), unique=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(1))  # F: equal shares, R: random split
    splits: Mapped[list[int]] = mapped_column(JSON)
    owner_mobile: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)


class SandboxTicket(SandboxBase):
    """One share taken by one mobile."""

    __tablename__ = "sandbox_truemoney_tickets"
    __table_args__ = (UniqueConstraint("voucher_hash", "mobile"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    voucher_hash: Mapped[str] = mapped_column(String(64), index=True)
    mobile: Mapped[str] = mapped_column(String(20))
    amount: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)


class SandboxTrueMoneyFault(SandboxBase):
    """Answers queued for the next calls (tests): see :class:`FaultIn`."""

    __tablename__ = "sandbox_truemoney_faults"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    action: Mapped[str] = mapped_column(String(10))
    answer: Mapped[str] = mapped_column(String(40))


class MintIn(RequestModel):
    model_config = ConfigDict(populate_by_name=True)

    amount: Decimal = Field(gt=0, le=100_000, decimal_places=2)
    expired: bool = False  # mint an already expired voucher (tests)
    shares: int = Field(default=1, ge=1, le=100)
    kind: str = Field(default="F", alias="type", pattern="^[FR]$")
    owner_mobile: str = Field(default="0890000000", alias="ownerMobile", max_length=20)


class VoucherIn(BaseModel):
    mobile: str = Field(min_length=1, max_length=20)
    voucher_hash: str = Field(min_length=1, max_length=64)


class FaultIn(RequestModel):
    """``answer``: ``cloudflare403`` / ``cloudflare429`` (an HTML page), ``html502``, ``lost``
    (redeem: the share is taken, then a 502 HTML page: the answer lost) or a status code, e.g.
    ``TARGET_USER_NOT_FOUND``, ``INTERNAL_ERROR``, ``SOMETHING_NEW``."""

    action: str = Field(pattern="^(verify|redeem)$")
    answer: str = Field(min_length=1, max_length=40)
    count: int = Field(default=1, ge=1, le=20)


def _splits(total: int, shares: int, kind: str) -> list[int]:
    if kind == "F" or shares == 1:
        each = total // shares
        return [each] * (shares - 1) + [total - each * (shares - 1)]
    # Random split: every share at least 1 satang, the rest spread at random.
    cuts = sorted(secrets.randbelow(total - shares + 1) for _ in range(shares - 1))
    bounds = [0, *cuts, total - shares]
    return [bounds[i + 1] - bounds[i] + 1 for i in range(shares)]


@router.post("/sandbox/truemoney/vouchers", **OPTS)
async def mint(body: MintIn, session: SandboxSessionDep) -> JSONResponse:
    voucher_hash = secrets.token_hex(16)
    now = utcnow()
    total = int(body.amount * 100)
    shares = min(body.shares, total)
    voucher = SandboxEnvelope(
        voucher_hash=voucher_hash,
        amount=total,
        kind=body.kind,
        splits=_splits(total, shares, body.kind),
        owner_mobile=body.owner_mobile,
        expires_at=now - timedelta(seconds=1) if body.expired else now + timedelta(VOUCHER_DAYS),
    )
    session.add(voucher)
    await session.commit()
    link = f"https://gift.truemoney.com/campaign/?v={voucher_hash}"
    return JSONResponse(
        {"link": link, "voucherHash": voucher_hash, "amount": float(body.amount)}, status_code=201
    )


@router.post("/sandbox/truemoney/faults", **OPTS)
async def faults(body: FaultIn, session: SandboxSessionDep) -> JSONResponse:
    session.add_all(
        SandboxTrueMoneyFault(action=body.action, answer=body.answer) for _ in range(body.count)
    )
    await session.commit()
    return JSONResponse({"queued": body.count})


async def _next_fault(session: SandboxSessionDep, action: str) -> str | None:
    query = (
        select(SandboxTrueMoneyFault)
        .where(SandboxTrueMoneyFault.action == action)
        .order_by(SandboxTrueMoneyFault.id)
        .limit(1)
    )
    fault = (await session.execute(query)).scalar_one_or_none()
    if fault is None:
        return None
    await session.delete(fault)
    await session.commit()
    return fault.answer


CLOUDFLARE = (
    "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>cf</body></html>"
)


def _fault_answer(answer: str) -> Response:
    match answer:
        case "cloudflare403":
            return HTMLResponse(CLOUDFLARE, status_code=403)
        case "cloudflare429":
            return HTMLResponse(CLOUDFLARE, status_code=429)
        case "html502" | "lost":
            return HTMLResponse("<html><body>502 Bad Gateway</body></html>", status_code=502)
    return _answer(answer)


def _mask_mobile(mobile: str) -> str:
    return f"{mobile[:3]}***{mobile[-4:]}" if len(mobile) >= 7 else mobile


def _data(voucher: SandboxEnvelope, tickets: list[SandboxTicket], mobile: str) -> dict[str, Any]:
    taken = sum(t.amount for t in tickets)
    mine = next((t for t in tickets if t.mobile == mobile), None)
    expired = voucher.expires_at <= utcnow()
    full = len(tickets) >= len(voucher.splits)
    status = "redeemed" if full else "expired" if expired else "active"

    def ticket(t: SandboxTicket) -> dict[str, Any]:
        return {
            "mobile": _mask_mobile(t.mobile),
            "update_date": int(t.created_at.timestamp() * 1000),
            "amount_baht": minor_to_major_text(t.amount),
            "full_name": "Sandbox R***",
            "profile_pic": None,
        }

    return {
        "voucher": {
            "voucher_id": str(voucher.id),
            "amount_baht": minor_to_major_text(voucher.amount),
            "redeemed_amount_baht": minor_to_major_text(taken),
            "member": len(voucher.splits),
            "status": status,
            "link": f"https://gift.truemoney.com/campaign/?v={voucher.voucher_hash}",
            "detail": "",
            "expire_date": int(voucher.expires_at.timestamp() * 1000),
            "type": voucher.kind,
            "redeemed": len(tickets),
            "available": len(voucher.splits) - len(tickets),
        },
        "owner_profile": {"full_name": "Sandbox O***"},
        "redeemer_profile": {"mobile_number": _mask_mobile(mobile)} if mine else None,
        "my_ticket": ticket(mine) if mine else None,
        "tickets": [ticket(t) for t in tickets],
    }


def _answer(code: str, data: dict[str, Any] | None = None) -> JSONResponse:
    # The HTTP status per code is UNCONFIRMED (providers.md §7): 200 for SUCCESS, 400 else.
    body = {"status": {"code": code, "message": code.lower().replace("_", " ")}, "data": data}
    return JSONResponse(body, status_code=200 if code == "SUCCESS" else 400)


async def _voucher(
    session: SandboxSessionDep, voucher_hash: str
) -> tuple[SandboxEnvelope | None, list[SandboxTicket]]:
    query = select(SandboxEnvelope).where(SandboxEnvelope.voucher_hash == voucher_hash)
    voucher = (await session.execute(query)).scalar_one_or_none()
    if voucher is None:
        return None, []
    tickets = (
        await session.execute(
            select(SandboxTicket)
            .where(SandboxTicket.voucher_hash == voucher_hash)
            .order_by(SandboxTicket.id)
        )
    ).scalars()
    return voucher, list(tickets)


def _refusal(voucher: SandboxEnvelope, tickets: list[SandboxTicket], mobile: str) -> str | None:
    if mobile == voucher.owner_mobile:
        return "CANNOT_GET_OWN_VOUCHER"
    if len(tickets) >= len(voucher.splits):
        return "VOUCHER_OUT_OF_STOCK"
    if voucher.expires_at <= utcnow():
        return "VOUCHER_EXPIRED"
    return None


@router.get("/sandbox/truemoney/campaign/vouchers/{voucher_hash}/verify", **OPTS)
async def verify(
    voucher_hash: str, session: SandboxSessionDep, mobile: str = Query(max_length=20)
) -> Response:
    fault = await _next_fault(session, "verify")
    if fault is not None:
        return _fault_answer(fault)
    voucher, tickets = await _voucher(session, voucher_hash)
    if voucher is None:
        return _answer("VOUCHER_NOT_FOUND")
    if any(t.mobile == mobile for t in tickets):
        return _answer("SUCCESS", _data(voucher, tickets, mobile))
    refusal = _refusal(voucher, tickets, mobile)
    if refusal is not None:
        return _answer(refusal)
    return _answer("SUCCESS", _data(voucher, tickets, mobile))


@router.post("/sandbox/truemoney/campaign/vouchers/{voucher_hash}/redeem", **OPTS)
async def redeem(voucher_hash: str, body: VoucherIn, session: SandboxSessionDep) -> Response:
    fault = await _next_fault(session, "redeem")
    if fault is not None and fault != "lost":
        return _fault_answer(fault)
    if body.voucher_hash != voucher_hash:
        return _answer("BAD_PARAM")
    voucher, tickets = await _voucher(session, voucher_hash)
    if voucher is None:
        return _answer("VOUCHER_NOT_FOUND")
    if any(t.mobile == body.mobile for t in tickets):
        return _answer("TARGET_USER_REDEEMED")
    refusal = _refusal(voucher, tickets, body.mobile)
    if refusal is not None:
        return _answer(refusal)
    ticket = SandboxTicket(
        voucher_hash=voucher_hash, mobile=body.mobile, amount=voucher.splits[len(tickets)]
    )
    session.add(ticket)
    await session.commit()
    if fault == "lost":
        return _fault_answer(fault)
    return _answer("SUCCESS", _data(voucher, [*tickets, ticket], body.mobile))


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
