"""4. Chat: how many socket.io clients one Pao process holds, memory per connection, and the
p99 delivery latency of a message to a room at that load — against a bare python-socketio
server (bench/chat_baseline.py) measured the same way in the same run.

The clients speak engine.io v4 / socket.io v5 over a raw websocket (the ``websockets``
package), which is what lets one bench process hold thousands of them: connect with
``auth = {"guestId": …}`` (a guest: no database round trip at connect, like most chat
visitors), ``join`` the guest's own room, answer pings. A message is sent the way the widget
sends it — ``POST /api/chat/send-message`` (stored, then delivered through socket.io and, with
Redis configured, its Redis manager) — and its latency runs from the POST to the
``messaging`` event on the room's socket. On the baseline the same socket emits ``say`` and
the bare server emits ``messaging`` to the room. A third server does Pao's work without its
framework (bench.chat_same_work: the same body, throttle, statements and Redis-borne emits),
timed as Pao is: the share of the delay that is Pao's own code.

Both servers are timed alike: a few messages first, untimed (a server's first requests pay its
start), and this process's own garbage collector held off while the messages are timed (one
of its full collections, walking thousands of held websockets, stops the clients' event loop
for a quarter of a second and was counted against the server: 181 ms "p99" on 12-07).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import resource
import statistics
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from bench.chat_same_work import PREFIX as SAME_WORK_PREFIX
from bench.chat_same_work import SEND_PATH
from bench.common import HOST, QUICK, Server, log

TARGET = 500 if QUICK else 5000
MESSAGES = 40 if QUICK else 200
HANDSHAKE_CONCURRENCY = 100
# Messages sent (to rooms not measured) before the timed ones: a server's first requests pay
# its one-off start (statements prepared, caches filled), which is not delivery at steady load.
WARM_UP_MESSAGES = 5
CONNECT_BUDGET_SECONDS = 150


def raise_nofile() -> int:
    """Lift the soft open-files limit to the hard one (children inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


@dataclass
class Client:
    guest_id: str
    room: str
    ws: Any = None
    waiting: dict[str, asyncio.Future[float]] = field(default_factory=dict)
    reader: asyncio.Task[None] | None = None


async def _connect(url: str, client: Client) -> None:
    ws = await websockets.connect(
        f"ws://{url}/socket.io/?EIO=4&transport=websocket",
        open_timeout=30,
        ping_interval=None,  # engine.io pings at its own level
        max_size=2**20,
        compression=None,
    )
    opened = await ws.recv()
    if not str(opened).startswith("0"):
        raise RuntimeError(f"engine.io open expected, got {opened!r}")
    await ws.send("40" + json.dumps({"guestId": client.guest_id}))
    while True:
        frame = str(await ws.recv())
        if frame.startswith("40"):
            break
        if frame.startswith("44"):
            raise RuntimeError(f"connect refused: {frame}")
    await ws.send("421" + json.dumps(["join", client.room]))
    while True:
        frame = str(await ws.recv())
        if frame.startswith("431"):
            if '"ok": true' not in frame and '"ok":true' not in frame:
                raise RuntimeError(f"join refused: {frame}")
            break
    client.ws = ws
    client.reader = asyncio.create_task(_read(client))


async def _read(client: Client) -> None:
    with contextlib.suppress(websockets.ConnectionClosed):
        async for frame in client.ws:
            text = str(frame)
            if text == "2":
                await client.ws.send("3")
            elif text.startswith("42"):
                event, data = json.loads(text[2:])[:2]
                if event == "messaging" and isinstance(data, dict):
                    waiter = client.waiting.pop(str(data.get("clientId")), None)
                    if waiter is not None and not waiter.done():
                        waiter.set_result(time.perf_counter())


@dataclass
class ChatResult:
    server: str
    connected: int
    failed: int
    connect_seconds: float
    rss_before_kib: int
    rss_after_kib: int
    latencies_ms: list[float]
    lost: int

    @property
    def kib_per_connection(self) -> float:
        return (self.rss_after_kib - self.rss_before_kib) / max(self.connected, 1)

    def percentile(self, q: int) -> float | None:
        if len(self.latencies_ms) < 2:
            return None
        return statistics.quantiles(self.latencies_ms, n=100, method="inclusive")[q - 1]


async def _measure(
    name: str, address: str, pid: int, prefix: str, send: Any, target: int
) -> ChatResult:
    rss_before = rss_kib(pid)
    clients = [
        Client(g, prefix + g) for g in (str(uuid.uuid4()) for _ in range(target))
    ]
    gate = asyncio.Semaphore(HANDSHAKE_CONCURRENCY)
    failures = 0

    async def one(client: Client) -> None:
        nonlocal failures
        async with gate:
            try:
                await _connect(address, client)
            except Exception:  # counted: the point is how many one process holds
                failures += 1

    start = time.perf_counter()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(
            asyncio.gather(*(one(c) for c in clients)), CONNECT_BUDGET_SECONDS
        )
    connect_seconds = time.perf_counter() - start
    live = [c for c in clients if c.ws is not None]
    await asyncio.sleep(2)  # let the server settle before reading its memory
    rss_after = rss_kib(pid)
    log(
        f"chat {name}: {len(live)}/{target} connected in {connect_seconds:.0f} s, "
        f"server RSS {rss_before // 1024} → {rss_after // 1024} MiB"
    )
    latencies: list[float] = []
    lost = 0
    async with httpx.AsyncClient(base_url=f"http://{address}", timeout=30) as http:
        # Messages to distinct rooms (the per-room send limit), ~20 a second, while all
        # the other sockets stay connected.
        senders = live[:: max(1, len(live) // MESSAGES)][:MESSAGES]
        warm_up = [c for c in live[-WARM_UP_MESSAGES:] if c not in senders]

        async def deliver(client: Client, timed: bool = True) -> None:
            nonlocal lost
            client_id = uuid.uuid4().hex
            waiter: asyncio.Future[float] = asyncio.get_running_loop().create_future()
            client.waiting[client_id] = waiter
            sent = time.perf_counter()
            await send(http, client, client_id)
            try:
                received = await asyncio.wait_for(waiter, 10)
                if timed:
                    latencies.append(1000 * (received - sent))
            except TimeoutError:
                lost += 1

        for client in warm_up:
            await deliver(client, timed=False)
        with _collector_paused():
            tasks = []
            for client in senders:
                tasks.append(asyncio.create_task(deliver(client)))
                await asyncio.sleep(0.05)
            await asyncio.gather(*tasks)
    for client in live:
        with contextlib.suppress(Exception):
            await client.ws.close()
        if client.reader is not None:
            client.reader.cancel()
    return ChatResult(
        name,
        len(live),
        failures,
        connect_seconds,
        rss_before,
        rss_after,
        latencies,
        lost,
    )


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """This process's garbage collector held off while latencies are timed.

    The bench process holds every client's websocket (thousands of objects), so one full
    collection of its own stops its event loop for 100–250 ms (measured: gc.callbacks), and a
    message whose ``messaging`` event arrives then is timed as if the server had been late.
    What was made while connecting is frozen (never walked again) and the collector is off for
    the ten seconds of messages, then everything is as before."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


def _posting(path: str) -> Any:
    """A sender that posts the message as the widget does (``POST /api/chat/send-message``'s
    body and guest header) to ``path``: Pao's route, or the same-work baseline's."""

    async def send(http: httpx.AsyncClient, client: Client, client_id: str) -> None:
        answer = await http.post(
            path,
            json={
                "message": {"message_type": "text", "payload": "bench"},
                "guestId": client.guest_id,
                "clientId": client_id,
            },
            headers={"X-Guest-Id": client.guest_id},
        )
        if answer.status_code != 200:
            raise RuntimeError(
                f"{path} answered {answer.status_code}: {answer.text[:200]}"
            )

    return send


async def _bare_send(_http: httpx.AsyncClient, client: Client, client_id: str) -> None:
    payload = {"room": client.room, "clientId": client_id}
    await client.ws.send("42" + json.dumps(["say", payload]))


def chat() -> list[ChatResult]:
    limit = raise_nofile()
    log(f"chat: open-files limit {limit}, target {TARGET} clients per process")
    return [
        _on_server(
            "pao", "bench.app:create_bench_app", _posting("/api/chat/send-message")
        ),
        _on_server(
            "same work",
            "bench.chat_same_work:app",
            _posting(SEND_PATH),
            SAME_WORK_PREFIX,
        ),
        _on_server("bare", "bench.chat_baseline:app", _bare_send, "room-"),
    ]


def _on_server(name: str, app: str, send: Any, prefix: str | None = None) -> ChatResult:
    """:func:`_measure` on one server process serving ``app``; the rooms' ``prefix`` is the
    server's own (``/api/chat/config``) unless given."""
    with Server(workers=1, app=app) as server:
        if prefix is None:
            config = httpx.get(f"{server.url}/api/chat/config", timeout=10).json()
            prefix = str(config["PREFIX"])
        assert server.proc is not None
        address = f"{HOST}:{server.port}"
        return asyncio.run(
            _measure(name, address, server.proc.pid, prefix, send, TARGET)
        )
