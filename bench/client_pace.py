"""The database's CPU per transaction as its client slows down.

``make bench`` finds that a Pao withdrawal costs PostgreSQL more CPU than pgbench's transaction
of the very same statements, while the database's own counters (``pg_stat_database``: blocks
read, rows returned, inserted, updated) show no more work per transaction. This isolates the
one difference left, the client's pace: ``bench/sql/withdraw_steps.sql`` is run by the bare asyncpg
client (bench.driver, two processes, 32 connections, many wallets) burning a fixed amount of its
own CPU after each statement, as an application does between its statements, interleaved
round by round with pgbench running the same script. A backend whose next statement is not
already waiting goes to sleep and must be woken for it, on cores it shares with the client.

``python -m bench.client_pace [--script withdraw.sql] [think µs …]`` (default
withdraw_steps.sql, the withdrawal one statement per write, at 0 150 300 450); it seeds the
bench database first, as ``make bench`` does. ``withdraw.sql`` is what the app sends on
PostgreSQL: the hold, the withdrawal and its line in one call of ``pao_request_withdrawal``
(ADR 0018), 7 round trips with BEGIN and COMMIT instead of 13.
"""

from __future__ import annotations

import argparse
from functools import partial

from bench import driver, seed
from bench.common import interleave, seconds
from bench.http import pgbench

MEMBERS = 1000
CLIENTS = 32
ROUNDS = 3


def main(script: str, thinks: list[int]) -> None:
    seed.prepare(MEMBERS)
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
    parser.add_argument("--script", default="withdraw_steps.sql")
    parser.add_argument("think_us", nargs="*", type=int, default=[0, 150, 300, 450])
    args = parser.parse_args()
    main(args.script, args.think_us)
