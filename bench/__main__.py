"""``python -m bench`` (what ``make bench`` runs): every benchmark, a table, docs/benchmarks.md.

Options: ``--only wallet,transfer,slip,seamless,read,login,chat,frontend`` to run a subset (the report then shows only
those), ``--members N`` (default 1000), ``--profile`` to record py-spy profiles of the write
and read paths, ``--no-write`` to print without rewriting docs/benchmarks.md.
``PAO_BENCH_QUICK=1`` shortens every phase (a smoke run; do not quote its figures).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from bench import invariants, report, seed
from bench.common import QUICK, REPO, Server, log, timed

SECTIONS = (
    "wallet",
    "transfer",
    "slip",
    "seamless",
    "read",
    "login",
    "chat",
    "frontend",
    "reports",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--members", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--before", help="a snapshot of backend/src to compare with (A/B)"
    )
    parser.add_argument(
        "--before-env", default="", help="K=V,… for the 'before' server"
    )
    args = parser.parse_args(argv)
    only = [s for s in args.only.split(",") if s and s != "none"]
    unknown = set(only) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {sorted(unknown)}")

    started = time.time()
    results: dict[str, Any] = {
        "workers": args.workers,
        "members": args.members,
        "quick": QUICK,
        "load_start": os.getloadavg(),
        # A run of some sections writes its own part of docs/benchmarks.md (report.write).
        "parts": None if set(only) >= set(SECTIONS) else only,
    }
    checks: list[invariants.Invariants] = []
    # Sections that failed (a long run's other figures are still reported and written).
    failed: list[str] = []
    if set(only) - {"reports"} or args.before:
        with timed("seeding"):
            seed.prepare(args.members)
        checks.append(invariants.check("seeding"))

    cursor = None
    if "slip" in only:
        from bench import slips

        # Outside the timed part: a distinct slip for every upload the run may send.
        cursor = slips.Cursor(slips.COUNT_QUICK if QUICK else slips.COUNT)
        with timed("drawing the slips"):
            slips.generate(cursor.count, args.members)
    if {"wallet", "transfer", "slip", "read", "login"} & set(only):
        from bench import login, wallet

        with Server(workers=args.workers) as server:
            with timed("warm-up"):
                wallet.warm_up(server, args.members, only, cursor)
            if "wallet" in only:
                from bench import sqlcheck

                results.setdefault("sqlcheck", []).append(
                    ("withdraw", sqlcheck.check("withdraw"))
                )
                with timed("wallet write path"):
                    results["withdrawals"] = wallet.withdrawals(server, args.members)
                with timed("withdraw vs its bare handler"):
                    results.setdefault("bare_paths", []).append(
                        wallet.against_bare_script(server, args.members, "withdraw")
                    )
                with timed("write path ceilings (no HTTP)"):
                    results["ceilings"] = wallet.ceilings(args.members)
                checks.append(invariants.check("withdrawals"))
            if "transfer" in only:
                from bench import sqlcheck

                results.setdefault("sqlcheck", []).append(
                    ("transfer", sqlcheck.check("transfer"))
                )
                with timed("wallet → game transfers"):
                    results["transfers"] = wallet.transfers(server, args.members)
                with timed("transfer vs its bare handler"):
                    results.setdefault("bare_paths", []).append(
                        wallet.against_bare_script(server, args.members, "transfer")
                    )
                # Game → wallet after wallet → game: the members' money is on the game.
                results["sqlcheck"].append(
                    ("transfer_out", sqlcheck.check("transfer_out"))
                )
                with timed("game → wallet transfers"):
                    results["transfers"] += wallet.transfers(
                        server, args.members, "out"
                    )
                with timed("game → wallet vs its bare handler"):
                    results.setdefault("bare_paths", []).append(
                        wallet.against_bare_script(server, args.members, "transfer_out")
                    )
                with timed("transfer ceiling (no HTTP)"):
                    results.setdefault("ceilings", []).extend(
                        wallet.transfer_ceiling(args.members)
                    )
                checks.append(invariants.check("transfers"))
            if "slip" in only:
                from bench import sqlcheck

                assert cursor is not None
                results.setdefault("sqlcheck", []).append(
                    ("slip", sqlcheck.check("slip"))
                )
                with timed("slip deposits"):
                    results["slips"] = wallet.slip_deposits(
                        server, args.members, cursor
                    )
                with timed("slip vs its bare handler"):
                    results.setdefault("bare_paths", []).append(
                        wallet.slip_against_bare(server, args.members, cursor)
                    )
                with timed("slip ceiling (no HTTP)"):
                    results.setdefault("ceilings", []).extend(
                        wallet.slip_ceiling(args.members)
                    )
                checks.append(invariants.check("slip deposits"))
            if "read" in only:
                with timed("read path"):
                    results["reads"] = wallet.reads(server, args.members)
                    results["floor"] = wallet.framework_floor(server, args.members)
                checks.append(invariants.check("reads"))
            if "login" in only:
                with timed("login"):
                    results["login"] = login.logins(server, args.members)
                    results["argon2"] = login.parameters()
                checks.append(invariants.check("logins"))
        if args.profile:
            results["profiles"] = _profiles(args.members)
            checks.append(invariants.check("profiling"))
    if "seamless" in only:
        from bench import seamless, sqlcheck

        # Its own server and its own section of docs/benchmarks.md (issue 30's table).
        check = sqlcheck.check("seamless")
        with timed("seamless wallet callbacks"):
            found = seamless.run_all(args.members, args.workers)
        checks.append(invariants.check("seamless callbacks"))
        text = seamless.markdown(found, check, results["load_start"])
        print(text)
        if not args.no_write:
            seamless.write(REPO / "docs" / "benchmarks.md", text)
        if found["ids_twice"]:
            log(
                f"INVARIANT BROKEN: {found['ids_twice']} provider transaction ids recorded twice"
            )
        if only == ["seamless"] and not args.before:
            broken = [c for c in checks if not c.ok]
            for c in checks:
                log(f"invariants after {c.after}: {'OK' if c.ok else 'BROKEN'} ({c})")
            return 1 if broken or found["ids_twice"] else 0
    if args.before:
        from bench import before_after

        env = dict(pair.split("=", 1) for pair in args.before_env.split(",") if pair)
        with timed("before/after"):
            results["before_after"] = before_after.compare(
                args.before, env, args.members, cursor
            )
            results["before_env"] = env
        checks.append(invariants.check("before/after"))
    if "chat" in only:
        from bench import chat

        with timed("chat"):
            results["chat"] = chat.chat()
        checks.append(invariants.check("chat"))
    if "frontend" in only:
        from bench import frontend

        with timed("frontend"):
            frontend.build()
            results["bundles"] = frontend.route_bytes()
            results["lighthouse"] = frontend.lighthouse_all()
            results["chromium"] = frontend.chromium_version()
        checks.append(invariants.check("lighthouse"))

    if "reports" in only:
        from bench import reports

        try:
            with timed("reports at scale"):
                results["reports"] = reports.run()
        except Exception as error:  # noqa: BLE001 - the other sections' figures still count
            log(f"REPORTS AT SCALE FAILED: {error!r}")
            failed.append("reports at scale")
        else:
            if not args.no_write:
                reports.write(REPO / "docs" / "benchmarks.md", results["reports"])
        if only == ["reports"]:
            # Its own section of docs/benchmarks.md: the other sections' figures are kept.
            if failed:
                return 1
            print(reports.markdown(results["reports"]))
            return 0

    results["invariants"] = checks
    results["seconds"] = time.time() - started
    table = report.table(results)
    print(table)
    if (
        not args.no_write and only
    ):  # `--only none` (make's install step) measures nothing
        path = REPO / "docs" / "benchmarks.md"
        report.write(path, results, table)
        log(f"wrote {path.relative_to(REPO)}")
    broken = [c for c in checks if not c.ok]
    if broken:
        log(f"INVARIANTS BROKEN after: {', '.join(c.after for c in broken)}")
        return 1
    if failed:
        log(f"FAILED: {', '.join(failed)} (the other sections' figures are written)")
        return 1
    return 0


def _profiles(members: int) -> dict[str, list[tuple[float, str]]]:
    from bench import profile
    from bench.http import wrk

    found: dict[str, list[tuple[float, str]]] = {}
    with Server(workers=1) as server:
        pids = server.worker_pids()
        for mode in ("withdraw", "wallet"):
            path = profile.record(
                pids,
                8,
                mode,
                lambda mode=mode: wrk(
                    server.url, mode, lo=1, hi=members, connections=32, duration=8
                ),
            )
            found[mode] = profile.top(path, limit=20, needle="pao/")
    return found


if __name__ == "__main__":
    sys.exit(main())
