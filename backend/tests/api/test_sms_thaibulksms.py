"""Registration OTP through ThaiBulkSMS's wire format, end to end against the sandbox's twin
of it: the code arrives and registers the member; a refused send is OTP_SEND_FAIL, stores no
OTP and spends nothing, and the member can ask again once the account has credit."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import func, select

from pao.core.settings import Settings
from pao.identity.models import OtpRequest
from tests.helpers import app_of, latest_otp_code, login, new_phone, register, sms_outbox

pytestmark = pytest.mark.sqlite


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"sms_provider": "thaibulksms"})


async def credit(client: httpx.AsyncClient, value: int | None) -> None:
    response = await client.post("/sandbox/thaibulksms/controls", json={"credit": value})
    assert response.status_code == 200, response.text


async def test_registration_otp_through_thaibulksms(client: httpx.AsyncClient) -> None:
    await credit(client, 5)
    phone = await register(client, via_otp=True)

    [message] = await sms_outbox(client, phone)
    assert message["text"].startswith(f"Pao OTP {await latest_otp_code(client, phone)} ")
    settings: Settings = app_of(client).state.settings
    key = settings.thaibulksms_api_key.get_secret_value()
    secret = settings.thaibulksms_api_secret.get_secret_value()
    left = await client.get("/sandbox/thaibulksms/credit", auth=(key, secret))
    assert left.json() == {"remaining_credit": 4}
    assert await login(client, phone)  # the member registered with the code


async def test_no_credit_is_otp_send_fail_and_stores_nothing(
    client: httpx.AsyncClient, app: FastAPI
) -> None:
    await credit(client, 0)
    phone = new_phone()

    refused = await client.post("/api/otp/send", json={"phoneNumber": phone})

    assert (refused.status_code, refused.json()) == (502, {"message": "OTP_SEND_FAIL"})
    assert await sms_outbox(client, phone) == []
    async with app.state.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).select_from(OtpRequest).where(OtpRequest.phone == phone)
        )
    assert count == 0
    # Credit bought: the same phone may ask again at once.
    await credit(client, None)
    again = await client.post("/api/otp/send", json={"phoneNumber": phone})
    assert again.status_code == 200, again.text
    assert len(await sms_outbox(client, phone)) == 1
