"""SMS pumping: hourly caps per phone-number prefix and in total (pao.identity.sms_budget).

Rotating client IPs over many numbers passes the per-phone and per-IP OTP caps; these do not.
Each test runs on both databases and on both rate limiters (memory, and Redis when
``PAO_TEST_REDIS_URL`` is set), as N processes would share them.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import AsyncIterator
from itertools import count

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.core.ratelimit import RateLimiter, RedisRateLimiter
from pao.identity import otp_proof
from pao.identity.exceptions import OtpBlock
from pao.identity.models import OtpRequest
from pao.identity.sms_budget import SmsBudget, SmsLimits
from tests.conftest import REDIS_URL
from tests.helpers import new_phone, set_site_setting, sms_outbox

LIMITERS = ["memory", *(["redis"] if REDIS_URL else [])]
_addresses = count(1)


@pytest.fixture(params=LIMITERS)
async def limiter(request: pytest.FixtureRequest, app: FastAPI) -> AsyncIterator[RateLimiter]:
    """The app's rate limiter: its own in-memory one, or Redis under a fresh key prefix."""
    if request.param == "memory":
        yield app.state.rate_limiter
        return
    assert REDIS_URL
    redis = RedisRateLimiter(REDIS_URL, prefix=f"pao:test:{uuid.uuid4().hex}:")
    memory, app.state.rate_limiter = app.state.rate_limiter, redis
    yield redis
    app.state.rate_limiter = memory
    await redis.close()


async def stored_otps(app: FastAPI, phone: str) -> int:
    async with app.state.sessionmaker() as s:
        query = select(func.count()).select_from(OtpRequest).where(OtpRequest.phone == phone)
        return int((await s.execute(query)).scalar_one())


def sibling(phone: str) -> str:
    """Another number with the same first six digits."""
    while (other := phone[:6] + f"{secrets.randbelow(10_000):04d}") == phone:
        pass
    return other


async def send_from_new_ip(app: FastAPI, phone: str) -> httpx.Response:
    """One OTP request from an address never seen before (the pumping pattern)."""
    n = next(_addresses)
    transport = httpx.ASGITransport(app=app, client=(f"10.77.{n // 250}.{n % 250 + 1}", 4000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        return await c.post("/api/otp/send", json={"phoneNumber": phone})


async def test_numbers_sharing_a_prefix_get_a_few_sms_an_hour(
    app: FastAPI, client: httpx.AsyncClient, limiter: RateLimiter
) -> None:
    await set_site_setting(client, "otpHourlyCapPerPrefix", 2)
    first = new_phone()
    phones = [first, sibling(first), sibling(first)]
    answers = [await send_from_new_ip(app, phone) for phone in phones]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[2].json() == {"message": "OTP_BLOCK"}
    # Refused before the gateway, and rolled back: no SMS, nothing stored.
    assert await sms_outbox(client, phones[2]) == []
    assert await stored_otps(app, phones[2]) == 0
    # Another range is not affected.
    assert (await send_from_new_ip(app, new_phone())).status_code == 200


async def test_all_sms_together_get_an_hourly_cap(
    app: FastAPI, client: httpx.AsyncClient, limiter: RateLimiter
) -> None:
    await set_site_setting(client, "otpHourlyCap", 3)
    await set_site_setting(client, "otpHourlyCapPerPrefix", 1)
    first = new_phone()
    assert (await send_from_new_ip(app, first)).status_code == 200
    # Refused by its prefix: that does not spend from the total.
    assert (await send_from_new_ip(app, sibling(first))).status_code == 429
    assert (await send_from_new_ip(app, new_phone())).status_code == 200
    assert (await send_from_new_ip(app, new_phone())).status_code == 200
    late = new_phone()
    refused = await send_from_new_ip(app, late)
    # Spent for everyone without a proof of work; the answer says the reserve is open to one.
    assert (refused.status_code, refused.json()) == (429, {"message": "OTP_BLOCK", "reserve": True})
    assert await sms_outbox(client, late) == []


async def test_the_prefix_length_is_a_setting(
    app: FastAPI, client: httpx.AsyncClient, limiter: RateLimiter
) -> None:
    await set_site_setting(client, "otpHourlyCapPerPrefix", 1)
    await set_site_setting(client, "otpPrefixDigits", 9)
    first = new_phone()
    # Same first six digits, different first nine: separate budgets now.
    assert (await send_from_new_ip(app, first)).status_code == 200
    other = first[:6] + ("0" if first[6] != "0" else "1") + first[7:]
    assert (await send_from_new_ip(app, other)).status_code == 200
    same_nine = first[:9] + ("0" if first[9] != "0" else "1")
    assert (await send_from_new_ip(app, same_nine)).status_code == 429


async def test_processes_sharing_redis_share_the_budget() -> None:
    if not REDIS_URL:
        pytest.skip("needs PAO_TEST_REDIS_URL")
    prefix = f"pao:test:{uuid.uuid4().hex}:"
    limits = SmsLimits(per_prefix_per_hour=5, per_hour=2, prefix_digits=6)
    first, second = RedisRateLimiter(REDIS_URL, prefix), RedisRateLimiter(REDIS_URL, prefix)
    try:
        await SmsBudget(first, limits).spend(phone="0912340001")
        await SmsBudget(second, limits).spend(phone="0955550001")
        with pytest.raises(OtpBlock):
            await SmsBudget(second, limits).spend(phone="0966660001")
    finally:
        await first.close()
        await second.close()


def _solve(challenge: str, bits: int) -> str:
    return next(str(n) for n in count() if otp_proof.solves(challenge, str(n), bits))


async def _proven(app: FastAPI, phone: str, proof: dict[str, str] | None) -> httpx.Response:
    n = next(_addresses)
    transport = httpx.ASGITransport(app=app, client=(f"10.78.{n // 250}.{n % 250 + 1}", 4000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as c:
        body = {"phoneNumber": phone, **({"proof": proof} if proof else {})}
        return await c.post("/api/otp/send", json=body)


async def test_a_proof_of_work_opens_the_reserve_once_the_total_is_spent(
    app: FastAPI, client: httpx.AsyncClient, limiter: RateLimiter
) -> None:
    await set_site_setting(client, "otpHourlyCap", 1)
    app.state.settings.otp_reserve_per_hour = 1
    app.state.settings.otp_proof_bits = 10  # the app's default costs a phone about a second
    assert (await _proven(app, new_phone(), None)).status_code == 200
    refused = await _proven(app, new_phone(), None)
    assert refused.json() == {"message": "OTP_BLOCK", "reserve": True}

    challenge = (await client.get("/api/otp/challenge")).json()
    assert challenge["bits"] == 10
    proof = {"challenge": challenge["challenge"], "nonce": _solve(challenge["challenge"], 10)}
    wrong = {**proof, "nonce": proof["nonce"] + "x"}
    if otp_proof.solves(wrong["challenge"], wrong["nonce"], 10):  # pragma: no cover
        wrong["nonce"] += "y"
    phone = new_phone()
    assert (await _proven(app, phone, wrong)).status_code == 429
    assert (await _proven(app, phone, proof)).status_code == 200
    assert len(await sms_outbox(client, phone)) == 1
    # A proof is good once; an invented challenge never; and the reserve has a size.
    assert (await _proven(app, new_phone(), proof)).status_code == 429
    invented = {"challenge": "made-up", "nonce": _solve("made-up", 10)}
    assert (await _proven(app, new_phone(), invented)).status_code == 429
    assert (await _proven(app, new_phone(), invented)).status_code == 429
    fresh = (await client.get("/api/otp/challenge")).json()["challenge"]
    spent = await _proven(app, new_phone(), {"challenge": fresh, "nonce": _solve(fresh, 10)})
    assert spent.json() == {"message": "OTP_BLOCK"}
