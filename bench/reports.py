"""The reports at an operator's scale: a year of activity, summaries, each report timed.

A database of its own (``PAO_BENCH_REPORTS_PG_URL``, dropped and re-created) is seeded in SQL
(``generate_series``, not through the API: minutes, not hours): 200,000 members registered over
a year, 2,500,000 two-leg journal entries (5,000,000 postings) over the same year — deposits from
every channel, paid withdrawals, promotion payouts of each kind, game transfers both ways —
150,000 withdrawals with their holds, 100,000 bonuses granted, 50,000 audit rows. The ledger's
guards are installed after the seed (they check each entry at commit; the seed's entries
balance by construction). Then the summaries are built by the same refresh the app runs
(timed: the one-off cost of adding reports to an existing operator), and one uvicorn worker
serves the app on that database.

Measured: each report over the last 30 days, ``RUNS`` times in turn (p50 / p95 / max, each
request also bringing the summaries up to date first), the dashboard likewise, and a year's CSV
of every depositor (the largest export) and of the daily figures: time to the first byte, total
time, size, and the worker's resident memory sampled during the download (peak − before).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import threading
import time
import urllib.request
from datetime import timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pao.models  # noqa: F401  (registers every table)
from pao.backoffice import ddl as backoffice_ddl
from pao.backoffice.sessions import service as sessions
from pao.backoffice.models import Staff
from pao.core.db import Base, create_sessionmaker
from pao.core.security import hash_password
from pao.kit.clock import utcnow
from pao.ledger.ddl import statements_for
from pao.reports import refresh as refresh_module
from pao.reports.refresh import refresh
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from bench.common import QUICK, Server, log

PG_URL = os.environ.get(
    "PAO_BENCH_REPORTS_PG_URL", "postgresql://postgres@127.0.0.1:5432/pao_bench_reports"
)
DB_URL = PG_URL.replace("postgresql://", "postgresql+asyncpg://", 1)
# PAO_BENCH_REPORTS_SCALE multiplies the seeded volumes: 10 is issue 36's "ten times today's
# scale" (2,000,000 members, 50,000,000 postings; hours on a 2-core machine, never in CI).
SCALE = int(os.environ.get("PAO_BENCH_REPORTS_SCALE", "1"))
MEMBERS = (20_000 if QUICK else 200_000) * SCALE
ENTRIES = (250_000 if QUICK else 2_500_000) * SCALE  # two postings each
WITHDRAWALS = (15_000 if QUICK else 150_000) * SCALE
BONUSES = (10_000 if QUICK else 100_000) * SCALE
AUDIT = (5_000 if QUICK else 50_000) * SCALE
RUNS = 5 if QUICK else 20
REPORTS = ("daily", "payments", "promotions", "games", "members", "staff")
EXPORTS = ("members/depositors", "daily/days")
BANGKOK = ZoneInfo("Asia/Bangkok")

# The seed, in SQL. :members, :entries… are bound; ts(n) spreads row n over the last 365 days.
SEED = [
    """CREATE TEMP TABLE params AS SELECT now() - interval '365 days' AS t0""",
    """INSERT INTO members (phone, name, password_hash, status, currency, bank_code,
         bank_account_name, bank_account_no, source_code, coin, created_at)
       SELECT '07' || lpad(n::text, 8, '0'), 'Member ' || n, :hash, 'ACTIVE', 'THB', 'KBANK',
              'MEMBER ' || n, lpad(n::text, 10, '0'),
              CASE WHEN n % 4 = 0 THEN NULL ELSE 'SRC' || (n % 12) END, 0,
              (SELECT t0 FROM params) + (n::float / :members) * interval '365 days'
       FROM generate_series(1::bigint, :members) AS n""",
    """INSERT INTO ledger_accounts (kind, owner, currency, balance, may_go_negative, created_at)
       SELECT 'player_wallet', id::text, 'THB', 0, false, created_at FROM members""",
    """INSERT INTO ledger_accounts (kind, owner, currency, balance, may_go_negative, created_at)
       VALUES ('bank_clearing', '', 'THB', 0, true, now()),
              ('gateway_clearing', 'WW', 'THB', 0, true, now()),
              ('gateway_clearing', 'PAYTIMZ', 'THB', 0, true, now()),
              ('gateway_clearing', 'PAYONEX', 'THB', 0, true, now()),
              ('wallet_provider_clearing', '', 'THB', 0, true, now()),
              ('manual_adjustments', '', 'THB', 0, true, now()),
              ('payout_clearing', '', 'THB', 0, true, now()),
              ('withdrawals_pending', '', 'THB', 0, true, now()),
              ('bonus_expense', '', 'THB', 0, true, now()),
              ('provider_float', 'PG', 'THB', 0, true, now()),
              ('provider_float', 'JOKER', 'THB', 0, true, now()),
              ('provider_float', 'SEXY', 'THB', 0, true, now()),
              ('provider_float', 'PRETTY', 'THB', 0, true, now()),
              ('provider_float', 'SBO', 'THB', 0, true, now())""",
    # What each entry is: n % 20 → 0-7 deposit (channel by n % 6), 8-10 withdrawal paid,
    # 11 promotion payout (kind by n % 4), 12-15 to a game, 16-19 back from a game.
    """CREATE TEMP TABLE plan AS
       SELECT n,
              (SELECT t0 FROM params) + (n::float / :entries) * interval '365 days'
                + (n % 97) * interval '1 second' AS at,
              1 + (n * 7919) % :members AS member,
              n % 20 AS what,
              100 + (n * 31) % 500000 AS amount
       FROM generate_series(1::bigint, :entries) AS n""",
    """INSERT INTO journal_entries (id, kind, actor, memo, created_at)
       SELECT n, CASE WHEN what < 8 THEN 'deposit' WHEN what < 11 THEN 'post'
                      WHEN what = 11 THEN (ARRAY['bonus','invite_bonus','refund','luckydraw'])[1 + n % 4]
                      WHEN what < 16 THEN 'game_deposit' ELSE 'game_withdraw' END,
              'bench', '', at
       FROM plan""",
    """SELECT setval(pg_get_serial_sequence('journal_entries', 'id'), :entries)""",
    """CREATE TEMP TABLE sys AS SELECT kind, owner, id FROM ledger_accounts WHERE kind <> 'player_wallet'""",
    """CREATE TEMP TABLE wallets AS SELECT owner::bigint AS member, id FROM ledger_accounts
       WHERE kind = 'player_wallet'""",
    """CREATE UNIQUE INDEX ON wallets (member)""",
    # The other side of each entry: a system account chosen by the entry's kind (a join on
    # its kind and owner, computed per entry).
    """CREATE TEMP TABLE counter AS
       SELECT p.n, p.amount, p.what, w.id AS wallet, s.id AS other
       FROM (SELECT plan.*,
                    CASE WHEN what < 8 THEN
                           (ARRAY['bank_clearing','gateway_clearing','gateway_clearing',
                                  'gateway_clearing','wallet_provider_clearing','manual_adjustments'])[1 + n % 6]
                         WHEN what < 11 THEN 'payout_clearing'
                         WHEN what = 11 THEN 'bonus_expense'
                         ELSE 'provider_float' END AS other_kind,
                    CASE WHEN what < 8 THEN (ARRAY['','WW','PAYTIMZ','PAYONEX','',''])[1 + n % 6]
                         WHEN what < 12 THEN ''
                         ELSE (ARRAY['PG','JOKER','SEXY','PRETTY','SBO'])[1 + n % 5] END AS other_owner
             FROM plan) p
       JOIN wallets w ON w.member = p.member
       JOIN sys s ON s.kind = p.other_kind AND s.owner = p.other_owner""",
    # Money into the wallet for deposits, payouts and game withdrawals; out of it otherwise.
    """INSERT INTO postings (entry_id, account_id, currency, amount)
       SELECT n, wallet, 'THB', CASE WHEN what < 8 OR what = 11 OR what >= 16 THEN amount ELSE -amount END
       FROM counter
       UNION ALL
       SELECT n, other, 'THB', CASE WHEN what < 8 OR what = 11 OR what >= 16 THEN -amount ELSE amount END
       FROM counter""",
    """UPDATE ledger_accounts a SET balance = t.total
       FROM (SELECT account_id, sum(amount) AS total FROM postings
             WHERE account_id IN (SELECT id FROM sys) GROUP BY account_id) t
       WHERE a.id = t.account_id""",
    # Withdrawals with their holds: requested over the year, most paid minutes later.
    """INSERT INTO ledger_holds (id, account_id, suspense_id, currency, amount, status, purpose,
         hold_entry_id, resolve_entry_id, created_at, resolved_at)
       SELECT n, w.id, (SELECT id FROM sys WHERE kind = 'withdrawals_pending'), 'THB',
              100 + n % 90000, CASE WHEN n % 10 < 8 THEN 'POSTED' WHEN n % 10 = 8 THEN 'VOIDED' ELSE 'PENDING' END,
              'withdrawal', 1 + (n * 13) % :entries, NULL,
              (SELECT t0 FROM params) + (n::float / :withdrawals) * interval '365 days',
              CASE WHEN n % 10 < 9 THEN (SELECT t0 FROM params) + (n::float / :withdrawals) * interval '365 days'
                     + (60 + (n * 37) % 7200) * interval '1 second' END
       FROM generate_series(1::bigint, :withdrawals) AS n
       JOIN wallets w ON w.member = 1 + (n * 104729) % :members""",
    """INSERT INTO withdrawals (member_id, amount, currency, status, hold_id, bank_code,
         bank_account_name, bank_account_no, created_at, decided_at)
       SELECT w.member, h.amount, 'THB',
              CASE h.status WHEN 'POSTED' THEN 'PAID' WHEN 'VOIDED' THEN 'REJECTED' ELSE 'PENDING' END,
              h.id, (ARRAY['KBANK','SCB','BBL','KTB','BAY'])[1 + h.id % 5], 'MEMBER', lpad(h.id::text, 10, '0'),
              h.created_at, h.resolved_at
       FROM ledger_holds h JOIN wallets w ON w.id = h.account_id""",
    """INSERT INTO promo_bonuses (code, kind, type, name, description, max_received, currency,
         percent, fixed_amount, max_amount, min_deposit, turnover_multiplier, percent_fail,
         claimed_count, banners, is_active, sort_order, created_at)
       SELECT 'PROMO' || n, 'BONUS', 'LIMIT', json_build_object('en', 'Promotion ' || n), '{}',
              1000, 'THB', 10 * n, 0, 100000, 0,
              3, 10, 0, '[]', true, n, now()
       FROM generate_series(1, 5) AS n""",
    """INSERT INTO promo_member_bonuses (member_id, bonus_id, status, currency, deposit_amount,
         bonus_amount, turnover_required, percent_fail, received_at, ended_at)
       SELECT 1 + (n * 7907) % :members, (SELECT min(id) FROM promo_bonuses) + n % 5,
              CASE WHEN n % 3 = 0 THEN 'CLEARED' WHEN n % 3 = 1 THEN 'ENDED' ELSE 'CLEARED' END,
              'THB', 10000, 100 + n % 20000, 300000, 10,
              (SELECT t0 FROM params) + (n::float / :bonuses) * interval '365 days', NULL
       FROM generate_series(1::bigint, :bonuses) AS n""",
    """INSERT INTO staff (login, display_name, role, password_hash, created_at)
       SELECT 'staff' || n, 'Staff ' || n, (ARRAY['owner','manager','cashier','support','viewer'])[1 + n % 5],
              'x', now()
       FROM generate_series(1, 10) AS n""",
    """INSERT INTO audit_log (at, staff_id, staff_role, actor, action, object_type, object_id)
       SELECT (SELECT t0 FROM params) + (n::float / :audit) * interval '365 days',
              s.id, s.role, s.login,
              (ARRAY['withdrawal.approve','withdrawal.reject','slip.approve','member.suspend',
                     'adjustment.request'])[1 + n % 5], 'withdrawal', n::text
       FROM generate_series(1::bigint, :audit) AS n
       JOIN staff s ON s.login = 'staff' || (1 + n % 10)""",
    """SELECT setval(pg_get_serial_sequence('ledger_holds', 'id'), :withdrawals)""",
]


async def _reset() -> None:
    url = make_url(DB_URL)
    admin = create_async_engine(
        url.set(database="postgres"), isolation_level="AUTOCOMMIT"
    )
    async with admin.connect() as conn:
        await conn.execute(
            text(f'DROP DATABASE IF EXISTS "{url.database}" WITH (FORCE)')
        )
        await conn.execute(text(f'CREATE DATABASE "{url.database}"'))
    await admin.dispose()


async def _seed() -> dict[str, float]:
    timings: dict[str, float] = {}
    engine = create_async_engine(DB_URL)
    params = {
        "members": MEMBERS,
        "entries": ENTRIES,
        "withdrawals": WITHDRAWALS,
        "bonuses": BONUSES,
        "audit": AUDIT,
        "hash": "bench-not-a-hash",
    }
    started = time.monotonic()
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
        for statement in SEED:
            clause = text(statement)
            used = {k: v for k, v in params.items() if f":{k}" in statement}
            await conn.execute(clause, used)
    async with engine.begin() as conn:
        # The ledger's and the audit log's guards, once the seed is in.
        for statement in (
            *statements_for("postgresql"),
            *backoffice_ddl.statements_for("postgresql"),
        ):
            await conn.exec_driver_sql(statement)
    async with engine.connect() as conn:
        await conn.execute(text("COMMIT"))
        await conn.execute(text("VACUUM ANALYZE"))
    timings["seed_s"] = time.monotonic() - started
    log(f"reports bench: seeded in {timings['seed_s']:.0f} s")
    sessionmaker = create_sessionmaker(engine)
    started = time.monotonic()
    # The one-off build of an existing operator's year: bigger batches than the app's
    # incremental steps (fewer round trips; the app's job commits every MAX_STEPS batches).
    refresh_module.BATCH = 100_000
    async with sessionmaker() as session:
        await refresh(session, zone=BANGKOK)
        await session.commit()
    timings["build_s"] = time.monotonic() - started
    async with engine.connect() as conn:
        await conn.execute(text("COMMIT"))
        await conn.execute(text("VACUUM ANALYZE"))
        sizes = await conn.execute(
            text(
                "SELECT (SELECT count(*) FROM postings), (SELECT count(*) FROM members),"
                " (SELECT count(*) FROM report_ledger_days),"
                " (SELECT count(*) FROM report_member_days)"
            )
        )
        postings, members, ledger_days, member_days = sizes.one()
    timings.update(
        postings=postings,
        members=members,
        ledger_days=ledger_days,
        member_days=member_days,
    )
    log(f"reports bench: summaries built in {timings['build_s']:.0f} s")
    await engine.dispose()
    return timings


async def _token() -> str:
    engine = create_async_engine(DB_URL)
    sessionmaker = create_sessionmaker(engine)
    async with sessionmaker() as session:
        staff = Staff(
            login="bench-manager",
            display_name="Bench manager",
            role="manager",
            password_hash=await asyncio.to_thread(hash_password, "bench-manager-pass"),
            totp_enrolled_at=utcnow(),
        )
        session.add(staff)
        await session.flush()
        token, _ = await sessions.open_session(
            session, staff=staff, ip="127.0.0.1", user_agent="bench"
        )
        await session.commit()
    await engine.dispose()
    return token


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _get(url: str, token: str) -> tuple[float, float, int]:
    """(first byte s, total s, bytes) of one GET."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=300) as answer:
        first = answer.read(1)
        ttfb = time.perf_counter() - started
        size = len(first)
        while chunk := answer.read(65536):
            size += len(chunk)
    return ttfb, time.perf_counter() - started, size


def _timings(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[max(0, round(0.95 * len(ordered)) - 1)] * 1000,
        "max_ms": ordered[-1] * 1000,
    }


def run() -> dict[str, Any]:
    asyncio.run(_reset())
    results: dict[str, Any] = {"seed": asyncio.run(_seed())}
    token = asyncio.run(_token())
    today = (utcnow() + timedelta(hours=7)).date()
    month = f"from={(today - timedelta(days=29)).isoformat()}&to={today.isoformat()}"
    year = f"from={(today - timedelta(days=365)).isoformat()}&to={today.isoformat()}"
    with Server(workers=1, extra_env={"PAO_DATABASE_URL": DB_URL}) as server:
        (pid,) = server.worker_pids()
        timed: dict[str, dict[str, float]] = {}
        for name in (*REPORTS, "dashboard"):
            path = (
                "/api/backoffice/dashboard"
                if name == "dashboard"
                else f"/api/backoffice/reports/{name}"
            )
            _get(f"{server.url}{path}?{month}", token)  # warm: plans cached, pool open
            samples = [
                _get(f"{server.url}{path}?{month}", token)[1] for _ in range(RUNS)
            ]
            timed[name] = _timings(samples)
            log(f"reports bench: {name} 30 days p95 {timed[name]['p95_ms']:.0f} ms")
        exports: dict[str, dict[str, float]] = {}
        for export in EXPORTS:
            before = _rss_kib(pid)
            peak = before
            done = threading.Event()

            def sample(done: threading.Event = done) -> None:
                nonlocal peak
                while not done.is_set():
                    peak = max(peak, _rss_kib(pid))
                    time.sleep(0.02)

            sampler = threading.Thread(target=sample)
            sampler.start()
            ttfb, total, size = _get(
                f"{server.url}/api/backoffice/reports/{export}.csv?{year}", token
            )
            done.set()
            sampler.join()
            exports[export] = {
                "ttfb_ms": ttfb * 1000,
                "total_s": total,
                "bytes": size,
                "rss_before_mib": before / 1024,
                "rss_growth_mib": (peak - before) / 1024,
            }
            log(
                f"reports bench: {export}.csv a year: first byte {ttfb * 1000:.0f} ms, {size:,} B"
            )
    results.update(reports=timed, exports=exports, runs=RUNS, load=os.getloadavg())
    return results


# Each scale has its own section in docs/benchmarks.md: a 10× run does not replace the 1× one.
_SECTION = "reports-bench" if SCALE == 1 else f"reports-bench-{SCALE}x"
START = f"<!-- {_SECTION}:start -->"
END = f"<!-- {_SECTION}:end -->"


def markdown(results: dict[str, Any]) -> str:
    seed = results["seed"]
    lines = [
        START,
        "## Reports at scale" + ("" if SCALE == 1 else f" ({SCALE}× issue 36's base)"),
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} by "
        + ("" if SCALE == 1 else f"`PAO_BENCH_REPORTS_SCALE={SCALE}` ")
        + '`make bench BENCH_ARGS="--only reports"` (`bench/reports.py`)'
        + (" — QUICK smoke run, do not quote" if QUICK else "")
        + f": {seed['members']:,} members and {seed['postings']:,} ledger postings over a year,"
        f" seeded in SQL in {seed['seed_s']:.0f} s; the summaries built from nothing in"
        f" {seed['build_s']:.0f} s ({seed['ledger_days']:,} ledger-day rows,"
        f" {seed['member_days']:,} member-day rows); one uvicorn worker, PostgreSQL on this"
        f" machine; load average at the end {results['load'][0]:.1f}"
        " (2 cores shared with other engineers' work).",
        "",
        (
            f"Each report over the last 30 days, {results['runs']} requests in turn (each first"
            " brings the summaries up to date):"
        ),
        "",
        "| report | p50 ms | p95 ms | max ms | target p95 |",
        "|---|---:|---:|---:|---|",
    ]
    for name, t in results["reports"].items():
        verdict = "≤ 1000 ✓" if t["p95_ms"] <= 1000 else "≤ 1000 ✗"
        lines.append(
            f"| {name} | {t['p50_ms']:.0f} | {t['p95_ms']:.0f} | {t['max_ms']:.0f} | {verdict} |"
        )
    lines += [
        "",
        "A year's CSV export (streamed):",
        "",
        "| export | first byte ms | total s | size | worker RSS before | RSS growth |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, e in results["exports"].items():
        lines.append(
            f"| {name}.csv | {e['ttfb_ms']:.0f} | {e['total_s']:.1f} | {e['bytes'] / 1e6:.1f} MB"
            f" | {e['rss_before_mib']:.0f} MiB | {e['rss_growth_mib']:.1f} MiB |"
        )
    lines.append(END)
    return "\n".join(lines)


def write(path: Path, results: dict[str, Any]) -> None:
    """Put the reports section in ``path`` (between its own markers; the rest is kept)."""
    block = markdown(results)
    text_ = path.read_text() if path.exists() else "# Benchmarks\n"
    if START in text_ and END in text_:
        head, _, rest = text_.partition(START)
        _, _, tail = rest.partition(END)
        path.write_text(head + block + tail)
    else:
        path.write_text(text_.rstrip("\n") + "\n\n" + block + "\n")
