"""The Grafana dashboard and the alert rules in deploy/ name only metrics the app exports.

A renamed metric would leave a panel empty and an alert silent without any error; this test
reads every PromQL expression in both files and looks each ``pao_*`` series up in a real
scrape of ``/metrics`` (the series of labelled metrics are known by their ``# TYPE`` lines
before any sample exists). promtool checks the rules' syntax (``make deploy-check``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import yaml  # type: ignore[import-untyped]

from pao.core.settings import REPO_ROOT
from tests.api.test_observability import BEARER, scraped  # noqa: F401 (fixture)

DEPLOY = REPO_ROOT / "deploy"
METRIC = re.compile(r"\bpao_[a-z0-9_]+")
TYPE_LINE = re.compile(r"^# TYPE (\S+) (\S+)$", re.MULTILINE)
# The series each metric type puts on the wire besides its own name.
SUFFIXES = {
    "histogram": ("_bucket", "_count", "_sum", "_created"),
    "counter": ("_total", "_created"),
    "gauge": (),
}


def _exprs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "expr" and isinstance(value, str):
                yield value
            else:
                yield from _exprs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _exprs(item)


def referenced() -> dict[str, set[str]]:
    """metric name → the deploy files that use it."""
    files: dict[str, Any] = {
        "alerts.yml": yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text()),
        "pao.json": json.loads((DEPLOY / "grafana" / "pao.json").read_text()),
    }
    used: dict[str, set[str]] = {}
    for name, content in files.items():
        for expr in _exprs(content):
            for metric in METRIC.findall(expr):
                used.setdefault(metric, set()).add(name)
    return used


def exported(exposition: str) -> set[str]:
    names = set()
    for name, kind in TYPE_LINE.findall(exposition):
        base = name.removesuffix("_total") if kind == "counter" else name
        names.add(name)
        names.update(base + suffix for suffix in SUFFIXES.get(kind, ()))
    return names


def test_files_reference_the_money_signals() -> None:
    used = referenced()
    for metric in (
        "pao_withdrawals_pending_oldest_age_seconds",
        "pao_game_transfers_unresolved_oldest_age_seconds",
        "pao_payouts_unresolved_oldest_age_seconds",
        "pao_job_last_success_timestamp_seconds",
        "pao_provider_calls_total",
    ):
        assert used.get(metric) == {"alerts.yml", "pao.json"}, metric


async def test_every_metric_the_deploy_files_name_is_exported(
    scraped: httpx.AsyncClient,  # noqa: F811
) -> None:
    response = await scraped.get("/metrics", headers=BEARER)
    assert response.status_code == 200
    names = exported(response.text)
    assert "pao_http_requests_total" in names
    missing = {metric: files for metric, files in referenced().items() if metric not in names}
    assert not missing, f"named in deploy/ but not exported: {missing}"


def test_a_renamed_metric_would_be_caught() -> None:
    names = exported("# TYPE pao_x_seconds histogram\n# TYPE pao_y_total counter\n")
    assert {"pao_x_seconds_bucket", "pao_y_total"} <= names
    assert "pao_z" not in names
    assert Path(DEPLOY / "grafana" / "pao.json").is_file()
