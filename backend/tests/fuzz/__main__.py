"""Fuzz the whole OpenAPI of the real app on PostgreSQL: ``python -m tests.fuzz`` (from backend/).

What it does, in order:

1. creates a fresh database ``<name>_fuzz`` on the server of ``PAO_TEST_DATABASE_URL`` (skips,
   exit 0, when that is unset), and flushes its Redis db (``PAO_FUZZ_REDIS_URL``, by default
   db 13 of ``PAO_TEST_REDIS_URL``'s server; no Redis when neither is set): throttle counters of
   an earlier run would refuse this run's own logins;
2. ``pao migrate``, ``pao demo`` and ``pao ops agent add`` on it, then ``pao serve`` with the
   sandbox on a free loopback port, and waits for ``/healthz``;
3. logs the demo member and the agent in, and gives the member what a player has after a while
   (game accounts, a slip deposit, a transfer, a QR deposit, a chat conversation with an upload
   and an agent's answer), so that routes taking an id also meet ids that exist;
4. runs schemathesis over ``/api/openapi.json`` with the two tokens (settings, checks and
   exclusions: ``schemathesis.toml`` beside this file; the ids of step 3 are appended to a copy
   of it as dictionaries that half of the generated values are drawn from);
5. terminates the site (``pao ops site terminate``) and runs a few valid cases per operation
   again: every operation must declare the 410 ``gone`` it then answers;
6. stops the server, and on any finding (or a server that died) prints the server's log.

It does not import pao: it drives the app only through its CLI and HTTP, as a deployment
would. Work files (server log, schemathesis reports) are kept in ``PAO_FUZZ_DIR`` (default
``var/fuzz`` at the repository root).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import pyotp
from redis import Redis
from sqlalchemy import URL, make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.integration.serving import free_port, wait_until_serving

HERE = Path(__file__).resolve().parent
BACKEND = HERE.parents[1]
REPO = BACKEND.parent
VENV_BIN = Path(sys.executable).parent
CONFIG = HERE / "schemathesis.toml"
HOST = "127.0.0.1"
FUZZ_REDIS_DB = 13
# The demo member of `pao demo` (README) and the staff member this script adds: an owner, who
# may do everything, so every back-office route and the chat inbox (AgentBearer) are fuzzed with
# a token that passes their permission check. The TOTP secret is fixed (base32) for the run.
MEMBER = {"username": "0812345678", "password": "demo1234"}
STAFF = {
    "login": "fuzz-owner",
    "password": "fuzz-owner-password",
    "secret": "JBSWY3DPEHPK3PXPJBSWY3DP",
}
# The games that have an auto-login route (GET /api/autoLogin/<game>/{username}[/{password}]).
AUTOLOGIN_GAMES = (
    "PG", "BETFLIX", "ASKMEBET", "IMI", "USUN", "AREASLOT",
    "CIRCUS", "SLOTRACHA", "PGSLOT", "JOKER2", "HUAYHD",
)  # fmt: skip
# The bonuses and promotions of `pao demo` (GET /api/bonus/activate/{code}, /api/promotion/…).
PROMOTION_CODES = ("WELCOME100", "DAILY10", "WEEKLY50", "PAO2026", "FREE20")
# The QR deposit channels of `pao demo` (a bank and the three gateways).
QR_CHANNELS = ("KBANK", "WW", "PAYTIMZ", "PAYONEX")
# A 1×1 GIF: the smallest image the chat accepts.
# A real 1×1 gif: the chat decodes an image before it keeps it (pao.kit.images).
GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
# Operator settings (`pao ops settings set`) that switch on what the demo leaves off: the chat
# and its FAQ bot, and withdrawals paid by the payout job without an operator.
SETTINGS = {
    "enableChatWidget": "true",
    "chatBotEnabled": "true",
    "withdrawAutoApproveMax": "THB=500",
    # Slips are refused around midnight by default: never closed, so that a run at any hour
    # prepares (and fuzzes) the same.
    "slipClosedFrom": "00:00",
    "slipClosedTo": "00:00",
}
# pao serve re-reads the site's termination flag at most once a second (pao.site.termination).
TERMINATION_CACHE_SECONDS = 1.5
# How often a path parameter bound to a dictionary takes one of its values (else: generated).
DICTIONARY_PROBABILITY = 0.5


def log(message: str) -> None:
    print(f"[fuzz {time.strftime('%H:%M:%S')}] {message}", flush=True)


async def _admin(url: URL, *statements: str) -> None:
    """Run ``statements`` on the server's maintenance database (outside a transaction, as
    CREATE / DROP DATABASE must be)."""
    engine = create_async_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as connection:
            for statement in statements:
                await connection.execute(text(statement))
    finally:
        await engine.dispose()


async def recreate_database(url: URL) -> None:
    drop = f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)'
    # Commits do not wait for the WAL's flush, as in the tests' databases (tests/conftest.py).
    create = f'CREATE DATABASE "{url.database}"'
    fast = f'ALTER DATABASE "{url.database}" SET synchronous_commit = off'
    await _admin(url, drop, create, fast)


async def drop_database(url: URL) -> None:
    await _admin(url, f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)')


def redis_url() -> str | None:
    if explicit := os.environ.get("PAO_FUZZ_REDIS_URL"):
        return explicit
    test_url = os.environ.get("PAO_TEST_REDIS_URL")
    if not test_url:
        return None
    # Same server, a db of its own: the run flushes it, and the tests (their own db) may be
    # running at the same time.
    return re.sub(r"(/\d+)?/?$", f"/{FUZZ_REDIS_DB}", test_url, count=1)


def app_env(database_url: str, redis: str | None, data_dir: Path, port: int) -> dict[str, str]:
    """The environment of every ``pao`` command of the run: none of the caller's PAO_*."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PAO_")}
    env.update(
        PAO_DATABASE_URL=database_url,
        PAO_SANDBOX="1",
        PAO_DATA_DIR=str(data_dir),
        PAO_HOST=HOST,
        PAO_PORT=str(port),
        # Cheap argon2id, as in the tests: /api/login is fuzzed like every route, and the
        # production cost would spend the run's minutes hashing.
        PAO_ARGON2_TIME_COST="1",
        PAO_ARGON2_MEMORY_KIB="1024",
    )
    if redis:
        env["PAO_REDIS_URL"] = redis
    return env


def pao(env: dict[str, str], *args: str) -> None:
    done = subprocess.run(
        [str(VENV_BIN / "pao"), *args], env=env, cwd=REPO, capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        raise SystemExit(f"pao {args[0]} failed ({done.returncode})")


def token(base: str, path: str, credentials: dict[str, str]) -> str:
    answer = httpx.post(f"{base}{path}", json=credentials, timeout=30)
    answer.raise_for_status()
    value = answer.json()["token"]
    assert isinstance(value, str)
    return value


def staff_token(base: str) -> str:
    """The staff member's session: the password step, then the current TOTP code."""
    ticket = _ok(
        httpx.post(
            f"{base}/api/backoffice/auth/login",
            json={"login": STAFF["login"], "password": STAFF["password"]},
            timeout=30,
        )
    )["ticket"]
    code = pyotp.TOTP(STAFF["secret"]).now()
    started = _ok(
        httpx.post(
            f"{base}/api/backoffice/auth/totp", json={"ticket": ticket, "code": code}, timeout=30
        )
    )
    value = started["token"]
    assert isinstance(value, str)
    return value


def _ok(answer: httpx.Response) -> Any:
    if answer.is_error:
        raise RuntimeError(f"{answer.request.method} {answer.request.url.path}: {answer.text}")
    return answer.json()


def _ok_bytes(answer: httpx.Response) -> bytes:
    answer.raise_for_status()
    return answer.content


def slip_deposit(member: httpx.Client) -> tuple[list[int], list[str]]:
    """A transfer at the sandbox bank to the operator's account, whose slip the member uploads
    twice (credited, then refused as a duplicate); (slip ids, transfer references)."""
    own = _ok(member.get("/api/wallet"))["bankAccount"]
    banks = _ok(member.get("/api/lookup/deposit"))["banks"]
    operator = next(b for b in banks if b["bankType"] != "PAYMENT" and b["mode"] != "AUTO")
    transfer = _ok(
        member.post(
            "/sandbox/bank/api/transfers",
            json={
                "fromBank": own["bankCode"],
                "fromAccount": own["bankAccountNo"],
                "toBank": operator["bankCode"],
                "toAccount": operator["bankAccountNo"],
                "amount": 300,
            },
        )
    )
    image = member.get(transfer["slipUrl"]).content
    slip_ids = []
    for _ in range(2):
        upload = member.post("/api/wallet/slip", files={"file": ("slip.png", image, "image/png")})
        slip_ids.append(int(_ok(upload)["slip"]["_id"]))
    return slip_ids, [str(transfer["reference"])]


def prepare(base: str, member_token: str, agent_token: str) -> dict[str, list[str] | list[int]]:
    """Give the demo member some history; returns the ids that exist, by path parameter name."""
    member = httpx.Client(
        base_url=base, headers={"Authorization": f"Bearer {member_token}"}, timeout=30
    )
    agent = httpx.Client(
        base_url=base, headers={"Authorization": f"Bearer {agent_token}"}, timeout=30
    )
    with member, agent:
        usernames, passwords = [], []
        for code in AUTOLOGIN_GAMES:
            _ok(member.get(f"/api/wallet/activate/{code}"))
            credentials = _ok(member.get(f"/api/wallet/account/{code}"))
            usernames.append(str(credentials["username"]))
            passwords.append(str(credentials["password"]))
        slip_ids, references = slip_deposit(member)
        transfer = {"from": "WALLET", "to": AUTOLOGIN_GAMES[0], "amount": 100}
        _ok(member.post("/api/wallet/transfer", json=transfer, headers={"Idempotency-Key": "fz-1"}))
        qr = _ok(member.post(f"/api/qrcode/{QR_CHANNELS[0]}", json={"amount": 100}))
        upload = _ok(member.post("/api/chat/upload-image", files={"file": ("a.gif", GIF)}))
        media = {
            "message_type": "media",
            "payload": {"filePath": upload["path"], "fileType": "image", "message": "a.gif"},
        }
        _ok(member.post("/api/chat/send-message", json={"message": media}))
        text = {"message_type": "text", "payload": "hello"}
        _ok(member.post("/api/chat/send-message", json={"message": text}))
        conversations = _ok(agent.get("/api/agent/conversations"))
        conversation_ids = [int(c["_id"]) for c in conversations]
        reply = {"message": {"message_type": "text", "payload": "hello, how can I help?"}}
        _ok(agent.post(f"/api/agent/conversations/{conversation_ids[0]}/messages", json=reply))
    return {
        "username": usernames,
        "password": passwords,
        "bankCode": list(QR_CHANNELS),
        # {code} names a game, a bonus or a gateway, depending on the route.
        "code": [*AUTOLOGIN_GAMES, *PROMOTION_CODES, *QR_CHANNELS[1:]],
        "qrcodeId": [str(qr["qrcodeId"])],
        # Not the media key of the upload: it holds "/", which schemathesis never puts in a path
        # parameter (unless the document gives an example with one).
        "conversation_id": conversation_ids,
        "slip_id": slip_ids,
        "reference": references,
    }


def config_with(known: dict[str, list[str] | list[int]], path: Path) -> Path:
    """``schemathesis.toml`` plus one dictionary per path parameter of ``known``, written to
    ``path``: generated values keep coming, and about half are ids that exist."""
    lines = [CONFIG.read_text(), "", "# Appended by tests/fuzz/__main__.py: ids that exist."]
    for name, values in known.items():
        lines += [f'[dictionaries."{name}"]', f"values = {json.dumps(values)}"]
    lines.append("[parameters]")
    for name in known:
        lines.append(
            f'"path.{name}" = {{ dictionary = "{name}", probability = {DICTIONARY_PROBABILITY} }}'
        )
    path.write_text("\n".join(lines) + "\n")
    return path


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is not None:
        return
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def print_server_log(path: Path) -> None:
    """The server's log without its access lines (one per request: thousands), which the
    schemathesis report repeats with the request itself."""
    lines = path.read_text(errors="replace").splitlines()
    kept = [line for line in lines if not re.search(r'" \d{3}( [A-Za-z ]+)?$', line)]
    print(f"----- server log ({len(kept)} of {len(lines)} lines; all of it in {path}) -----")
    print("\n".join(kept))
    print("----- end of server log -----", flush=True)


def fuzz(
    base: str, server: subprocess.Popen[bytes], env: dict[str, str], reports: Path, work: Path
) -> int:
    """Log in, prepare, run schemathesis twice; non-zero when anything was found."""
    # Its log is printed after any failure of the run (main).
    wait_until_serving(base, server, seconds=90)
    log(f"pao serve on {base}")
    member_token = token(base, "/api/login", MEMBER)
    agent_token = staff_token(base)
    config = config_with(prepare(base, member_token, agent_token), work / CONFIG.name)
    fuzz_env = {
        **os.environ,
        "PAO_FUZZ_MEMBER_TOKEN": member_token,
        "PAO_FUZZ_AGENT_TOKEN": agent_token,
        "PAO_FUZZ_REPORT_DIR": str(reports),
    }

    # The document as served (the sandbox's routes are not in it), kept in a file: a terminated
    # site closes /api/openapi.json too.
    document = work / "openapi.json"
    document.write_bytes(_ok_bytes(httpx.get(f"{base}/api/openapi.json", timeout=30)))

    def schemathesis(*options: str) -> int:
        command = [
            str(VENV_BIN / "schemathesis"),
            "--no-color",
            "--config-file",
            str(config),
            "run",
            str(document),
            "--url",
            base,
            *options,
            # Extra options for a local run, e.g. `python -m tests.fuzz --max-examples 500`.
            *sys.argv[1:],
        ]
        return subprocess.run(command, env=fuzz_env, cwd=work).returncode

    code = schemathesis()
    # A terminated site answers every /api call (but GET /api/lookup/active) with 410 gone, before
    # any route runs: a few valid cases per operation check that each one declares it.
    log("the same operations on a terminated site (pao ops site terminate)")
    pao(env, "ops", "site", "terminate")
    time.sleep(TERMINATION_CACHE_SECONDS)
    closed = (
        "--phases",
        "fuzzing",
        "--mode",
        "positive",
        "--max-examples",
        "3",
        "--warnings",
        "off",
    )
    code = schemathesis(*closed) or code
    if server.poll() is not None:
        log(f"pao serve died during the run (exit {server.returncode})")
        return code or 1
    return code


def main() -> int:
    test_url = os.environ.get("PAO_TEST_DATABASE_URL")
    if not test_url:
        log("skipped: PAO_TEST_DATABASE_URL is not set (the fuzz run needs PostgreSQL)")
        return 0
    base_url = make_url(test_url)
    fuzz_url = base_url.set(database=f"{base_url.database}_fuzz")
    work = Path(os.environ.get("PAO_FUZZ_DIR", REPO / "var" / "fuzz"))
    work.mkdir(parents=True, exist_ok=True)
    reports = work / "report"
    # One run's reports only (each is named by its start time).
    shutil.rmtree(reports, ignore_errors=True)
    server_log = work / "server.log"
    started = time.monotonic()

    log(f"database {fuzz_url.database} (re-created)")
    asyncio.run(recreate_database(fuzz_url))
    redis = redis_url()
    if redis:
        log(f"redis {redis} (flushed)")
        with Redis.from_url(redis) as client:
            client.flushdb()
    port = free_port()
    base = f"http://{HOST}:{port}"

    with tempfile.TemporaryDirectory(prefix="pao-fuzz-") as data_dir:
        env = app_env(fuzz_url.render_as_string(hide_password=False), redis, Path(data_dir), port)
        pao(env, "migrate")
        pao(env, "demo")
        pao(
            env, "ops", "staff", "add", STAFF["login"], "--role", "owner",
            "--password", STAFF["password"], "--totp-secret", STAFF["secret"],
        )  # fmt: skip
        # Features the demo leaves off, on: their routes would otherwise only answer "disabled".
        for key, value in SETTINGS.items():
            pao(env, "ops", "settings", "set", key, value)
        with server_log.open("wb") as out:
            server = subprocess.Popen(
                [str(VENV_BIN / "pao"), "serve"],
                env=env,
                cwd=REPO,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            code = fuzz(base, server, env, reports, work)
        except Exception as exc:  # a broken set-up fails the run like a finding, with the log
            log(f"set-up failed: {exc!r}")
            code = 1
        finally:
            stop(server)
    elapsed = time.monotonic() - started
    if code != 0:
        print_server_log(server_log)
        log(
            f"FAILED after {elapsed:.0f} s; reports in {reports}, database {fuzz_url.database} kept"
        )
        return code
    asyncio.run(drop_database(fuzz_url))
    log(f"passed in {elapsed:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
