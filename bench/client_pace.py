"""The database's CPU per transaction as its client slows down.

``make bench`` finds that a Pao withdrawal costs PostgreSQL more CPU than pgbench's transaction
of the very same statements, while the database's own counters (``pg_stat_database``: blocks
read, rows returned, inserted, updated) show no more work per transaction. This isolates the
one difference left, the client's pace: ``bench/sql/withdraw.sql`` is run by the bare asyncpg
client (bench.driver, two processes, 32 connections, many wallets) burning a fixed amount of its
own CPU after each statement, as an application does between its statements, interleaved
round by round with pgbench running the same script. A backend whose next statement is not
already waiting goes to sleep and must be woken for it, on cores it shares with the client.

``python -m bench.client_pace [--script withdraw_once.sql] [think µs …]`` (default
withdraw.sql at 0 150 300 450); it seeds the bench database first, as ``make bench`` does.
``withdraw_once.sql`` is the round-trip experiment: the same transaction as one server-side
function (``bench/sql/withdraw_function.sql``, created first), one round trip instead of 13,
against pgbench running that same one statement.
"""

from __future__ import annotations

import argparse
import subprocess
from functools import partial

from bench import driver, seed
from bench.common import BENCH_DIR, PG_URL, interleave, seconds
from bench.http import pgbench

MEMBERS = 1000
CLIENTS = 32
ROUNDS = 3
# What a script needs created in the bench database before it runs.
SETUP = {"withdraw_once.sql": "withdraw_function.sql"}


def main(script: str, thinks: list[int]) -> None:
    seed.prepare(MEMBERS)
    if script in SETUP:
        subprocess.run(
            [
                "psql",
                "-q",
                "-v",
                "ON_ERROR_STOP=1",
                "-f",
                str(BENCH_DIR / "sql" / SETUP[script]),
                PG_URL,
            ],
            check=True,
        )
    duration = seconds(8)
    print(f"{script}:")
    print(
        "| client CPU per statement (µs) | asyncpg: tx/s | database CPU ms/tx "
        "| client CPU ms/tx | pgbench: tx/s | database CPU ms/tx "
        "| database work: pgbench ÷ asyncpg |"
    )
    print("|---|---|---|---|---|---|---|")
    for think in thinks:
        # interleave meters each side's CPU per transaction (bench.cpu_share) round by round.
        comparison = interleave(
            f"client pace {think} µs per statement",
            ROUNDS,
            partial(
                driver.run,
                "asyncpg",
                script,
                lo=1,
                hi=MEMBERS,
                clients=CLIENTS,
                duration=duration,
                think_us=think,
            ),
            lambda: pgbench(
                script, lo=1, hi=MEMBERS, clients=CLIENTS, duration=duration
            ),
        )
        client, base = comparison.summary("subject"), comparison.summary("baseline")
        print(
            f"| {think} | {client['rate']:,.0f} | {client['db_ms']:.2f} "
            f"| {client['load_ms']:.2f} | {base['rate']:,.0f} | {base['db_ms']:.2f} "
            f"| {base['db_ms'] / client['db_ms']:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.client_pace")
    parser.add_argument("--script", default="withdraw.sql")
    parser.add_argument("think_us", nargs="*", type=int, default=[0, 150, 300, 450])
    args = parser.parse_args()
    main(args.script, args.think_us)
