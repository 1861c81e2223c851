"""Before/after of a change, in one run: the same load against two servers side by side — the
working tree ("after") and a snapshot of ``backend/src`` ("before", put first on PYTHONPATH),
interleaved round by round, with the servers' CPU milliseconds per request (which other load on
the machine barely moves) as well as their throughput.

``python -m bench --only none --before /path/to/src --before-env PAO_DB_POOL_PRE_PING=1``
(``--only slip`` adds the slip uploads: they need the slips the run draws).

The withdrawal, the wallet read and the transfer are compared always."""

from __future__ import annotations

from bench import slips
from bench.common import Comparison, Server, interleave, rounds, seconds
from bench.http import wrk
from bench.wallet import slip_wrk

CONCURRENCY = 32


def compare(
    before_src: str,
    before_env: dict[str, str],
    members: int,
    cursor: slips.Cursor | None = None,
) -> list[Comparison]:
    """``cursor``: the slips drawn for the run, when slip uploads are compared too."""
    results = []
    after_server = Server(workers=2)
    before_server = Server(
        workers=2, extra_env={"PYTHONPATH": before_src, **before_env}
    )
    duration = seconds(6)
    with after_server as after, before_server as before:
        for name, mode, lo, hi in (
            ("after/before: withdraw, many wallets", "withdraw", 1, members),
            ("after/before: withdraw, one hot wallet", "withdraw", 1, 1),
            ("after/before: GET /api/wallet", "wallet", 1, members),
            ("after/before: transfer wallet → game", "transfer", 1, members),
        ):
            results.append(
                interleave(
                    name,
                    rounds(3),
                    lambda mode=mode, lo=lo, hi=hi: wrk(
                        after.url,
                        mode,
                        lo=lo,
                        hi=hi,
                        connections=CONCURRENCY,
                        duration=duration,
                        server=after,
                    ),
                    lambda mode=mode, lo=lo, hi=hi: wrk(
                        before.url,
                        mode,
                        lo=lo,
                        hi=hi,
                        connections=CONCURRENCY,
                        duration=duration,
                        server=before,
                    ),
                )
            )
        if cursor is not None:
            results.append(
                interleave(
                    "after/before: slip deposit credited",
                    rounds(3),
                    lambda: slip_wrk(after, members, cursor, duration),
                    lambda: slip_wrk(before, members, cursor, duration),
                )
            )
    return results
