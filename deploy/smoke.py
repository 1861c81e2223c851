"""The smoke test deploy/smoke.sh runs through nginx against two ``pao serve`` processes.

Everything a player and an agent need goes through the proxy over TLS (the certificate is the
one smoke.sh generated, verified, not ignored): the probes, the app's page, registration and
login, a wallet read answered by both processes, and the support chat — the member's socket
and the agent's socket both on socket.io over a websocket through nginx, a member's message
reaching the agent's socket. It also checks that /metrics is not reachable through the proxy
but is on each process with the token, and that each process saw some of the traffic.

Configuration from the environment (set by smoke.sh): SMOKE_BASE (https://127.0.0.1:PORT),
SMOKE_CA (the certificate file), SMOKE_SPA (1: the web app is built, check its page),
SMOKE_DIRECT (the processes' own URLs, comma-separated), PAO_METRICS_TOKEN,
SMOKE_AGENT_LOGIN / SMOKE_AGENT_PASSWORD / SMOKE_AGENT_TOTP.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import ssl
import sys
import time
from typing import Any

import aiohttp
import httpx
import pyotp
import socketio

BASE = os.environ["SMOKE_BASE"]
CA = os.environ["SMOKE_CA"]
DIRECT = os.environ["SMOKE_DIRECT"].split(",")
METRICS = {"Authorization": f"Bearer {os.environ['PAO_METRICS_TOKEN']}"}


def step(text: str) -> None:
    print(f"smoke: {text}", flush=True)


def expect(condition: bool, what: str) -> None:
    if not condition:
        raise SystemExit(f"smoke: FAILED: {what}")


async def register_member(http: httpx.AsyncClient) -> tuple[str, int]:
    phone = "08" + "".join(secrets.choice("0123456789") for _ in range(8))
    body = {
        "name": "Smoke Test",
        "username": phone,
        "password": "smoke-secret-1",
        "bankCode": "KBANK",
        "bankAccountName": "SMOKE TEST",
        "bankAccountNo": "".join(secrets.choice("0123456789") for _ in range(10)),
        "sourceCode": None,
        "inviteCode": None,
    }
    created = await http.post("/api/account", json=body)
    expect(created.status_code == 201, f"registration answered {created.status_code}")
    login = await http.post("/api/login", json={"username": phone, "password": "smoke-secret-1"})
    expect(login.status_code == 200, f"login answered {login.status_code}")
    token: str = login.json()["token"]
    profile = await http.get("/api/account/profile", headers={"Authorization": f"Bearer {token}"})
    return token, int(profile.json()["profile"]["_id"])


async def agent_token(http: httpx.AsyncClient) -> str:
    first = await http.post(
        "/api/backoffice/auth/login",
        json={
            "login": os.environ["SMOKE_AGENT_LOGIN"],
            "password": os.environ["SMOKE_AGENT_PASSWORD"],
        },
    )
    expect(first.status_code == 200, f"staff login answered {first.status_code}")
    code = pyotp.TOTP(os.environ["SMOKE_AGENT_TOTP"]).now()
    second = await http.post(
        "/api/backoffice/auth/totp", json={"ticket": first.json()["ticket"], "code": code}
    )
    expect(second.status_code == 200, f"staff code answered {second.status_code}")
    token: str = second.json()["token"]
    return token


class Socket:
    """A socket.io client on the websocket transport only, through the proxy, over TLS."""

    def __init__(self, tls: ssl.SSLContext) -> None:
        self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=tls))
        self.client = socketio.AsyncClient(reconnection=False, http_session=self.session)
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client.on("messaging", self.events.put_nowait)

    async def connect(self, auth: dict[str, str]) -> None:
        await self.client.connect(BASE, auth=auth, transports=["websocket"], wait_timeout=10)
        expect(self.client.transport() == "websocket", "socket.io is not on a websocket")

    async def next(self) -> dict[str, Any]:
        return await asyncio.wait_for(self.events.get(), 10)

    async def close(self) -> None:
        await self.client.disconnect()
        await self.session.close()


async def socket_gauges() -> dict[str, float]:
    """pao_socketio_connections{kind} summed over the processes."""
    kinds: dict[str, float] = {}
    for url in DIRECT:
        async with httpx.AsyncClient(base_url=url, timeout=10) as direct:
            text = (await direct.get("/metrics", headers=METRICS)).text
        for line in text.splitlines():
            if line.startswith("pao_socketio_connections{"):
                kind = line.split('kind="', 1)[1].split('"', 1)[0]
                kinds[kind] = kinds.get(kind, 0) + float(line.rsplit(" ", 1)[1])
    return kinds


def wallet_reads(text: str) -> float:
    """How many GET /api/wallet a process answered, from its exposition."""
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("pao_http_requests_total{") and 'route="/api/wallet"' in line
    )


async def main() -> None:
    started = time.monotonic()
    tls = ssl.create_default_context(cafile=CA)
    async with httpx.AsyncClient(base_url=BASE, verify=tls, timeout=10) as http:
        for probe in ("/healthz", "/readyz"):
            answer = await http.get(probe)
            expect(answer.status_code == 200, f"{probe} through the proxy: {answer.text}")
        step("probes answer 200 through nginx over TLS")
        if os.environ.get("SMOKE_SPA") == "1":  # make smoke builds it; a bare run may not
            page = await http.get("/login")
            expect(page.status_code == 200, f"/login answered {page.status_code}")
            expect("text/html" in page.headers["content-type"], "/login is not the app's page")
        closed = await http.get("/metrics", headers=METRICS)
        expect(closed.status_code == 404, "/metrics must not be served through the proxy")
        built = os.environ.get("SMOKE_SPA") == "1"
        step(f"{'the app page is served; ' if built else ''}/metrics is closed at the proxy")

        token, member = await register_member(http)
        for _ in range(6):
            wallet = await http.get("/api/wallet", headers={"Authorization": f"Bearer {token}"})
            expect(wallet.status_code == 200, f"/api/wallet answered {wallet.status_code}")
        step(f"member {member} registered, logged in and read the wallet")

        prefix = (await http.get("/api/chat/config")).json()["PREFIX"]
        agent = await agent_token(http)
        member_socket, agent_socket = Socket(tls), Socket(tls)
        try:
            await member_socket.connect({"token": token})
            joined = await member_socket.client.call("join", f"{prefix}{member}", timeout=10)
            expect(joined == {"ok": True}, f"join answered {joined}")
            await agent_socket.connect({"agentToken": agent})
            step("member and agent sockets connected over websocket through nginx")
            sent = await http.post(
                "/api/chat/send-message",
                json={"message": {"message_type": "text", "payload": "smoke hello"}},
                headers={"Authorization": f"Bearer {token}"},
            )
            expect(sent.status_code == 200, f"send-message answered {sent.status_code}")
            for name, socket in (("member", member_socket), ("agent", agent_socket)):
                event = await socket.next()
                expect(event["message"]["payload"] == "smoke hello", f"{name} got {event}")
            step("the member's message reached the member's and the agent's sockets")
            open_sockets = await socket_gauges()
            expect(
                open_sockets.get("member", 0) >= 1 and open_sockets.get("agent", 0) >= 1,
                f"pao_socketio_connections says {open_sockets}",
            )
            step(f"the processes count the open sockets: {open_sockets}")
        finally:
            await member_socket.close()
            await agent_socket.close()

    for url in DIRECT:
        async with httpx.AsyncClient(base_url=url, timeout=10) as direct:
            scraped = await direct.get("/metrics", headers=METRICS)
            expect(scraped.status_code == 200, f"{url}/metrics answered {scraped.status_code}")
            expect("pao_withdrawals_pending " in scraped.text, "backlog gauges missing")
            # nginx spread the member's wallet reads over both processes.
            expect(wallet_reads(scraped.text) > 0, f"{url} answered no wallet read")
    step(f"each of the {len(DIRECT)} processes answered wallet reads and exports its metrics")
    step(f"passed in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except SystemExit:
        raise
    except Exception as exc:
        print(f"smoke: FAILED: {type(exc).__name__}: {exc}", file=sys.stderr)
        raise SystemExit(1) from exc
