"""Hub88's and AMB's documented wallet scenarios over real sockets, against a real ``pao
serve`` on SQLite and PostgreSQL.

The suites in ``tests/api`` play each scenario in process (ASGI), where a test is cheap; here
the same scenario functions play against one served process per database, so what only a
server does is in the path too: uvicorn's HTTP parsing of the raw body the signature covers,
the served app (``pao.main.create_served_app``) with its middleware and fast lane, its
own pool on the database beside the test's. The scenarios arrange and assert through an app of
the same settings beside the server (``tests.helpers.ServedClient``); the books balance after
them all.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from pao.core.settings import Settings
from pao.ledger.service import check_books
from tests.api import test_seamless_amb as amb
from tests.api import test_seamless_hub88 as hub88
from tests.helpers import ServedClient
from tests.integration.serving import PAO, serve_environment, serving

pytestmark = pytest.mark.sqlite

Scenario = Callable[[httpx.AsyncClient], Awaitable[None]]

HUB88: list[Scenario] = [
    hub88.test_balance_bet_win_and_the_round,
    hub88.test_replay_answers_as_the_first_time_and_different_data_is_a_duplicate,
    hub88.test_rollback_gives_the_stake_back_once,
    hub88.test_rollback_before_its_bet_refuses_the_late_bet,
    hub88.test_win_for_an_unknown_bet_and_rollback_of_a_won_bet,
    hub88.test_insufficient_funds_answers_the_balance,
    hub88.test_bad_signature_moves_nothing,
    hub88.test_expired_token_refuses_a_bet_but_never_a_win,
    hub88.test_wrong_currency_unknown_game_and_someone_elses_token,
    hub88.test_fifty_concurrent_bets_never_go_below_zero,
    hub88.test_one_transaction_id_sent_at_once_moves_money_once,
]

COMMON_FLOW: list[Scenario] = [
    amb.test_bet_then_settle_and_the_duplicate_rule,
    amb.test_single_state_settlement_takes_the_stake_and_pays,
    amb.test_cancel_once_and_cancel_before_the_bet,
    amb.test_a_batch_stops_at_its_first_refusal,
    amb.test_unsigned_unknown_and_unoffered_calls_move_nothing,
    amb.test_a_round_settled_bet_by_bet_is_open_until_its_end,
    amb.test_what_ends_an_amb_round,
]


@pytest.fixture
def server(settings: Settings, tmp_path: Path) -> Iterator[str]:
    """The URL of a ``pao serve`` on the test's database (and its keys), stopped after it."""
    assert settings.database_url is not None
    env = serve_environment(
        settings.database_url,
        tmp_path,
        PAO_DATA_DIR=str(settings.data_dir),
        PAO_STATIC_DIR=str(settings.static_dir),
        PAO_ARGON2_TIME_COST=str(settings.argon2_time_cost),
        PAO_ARGON2_MEMORY_KIB=str(settings.argon2_memory_kib),
    )
    with serving([PAO, "serve"], env, tmp_path / "serve.log") as (url, _proc):
        yield url


@pytest.fixture
async def served(app: FastAPI, server: str) -> AsyncIterator[ServedClient]:
    async with ServedClient(app, server) as client:
        yield client


async def test_the_documented_scenarios_against_pao_serve(
    served: ServedClient, app: FastAPI
) -> None:
    for scenario in HUB88 + COMMON_FLOW:
        try:
            await scenario(served)
        except AssertionError as failure:
            raise AssertionError(f"{scenario.__module__}.{scenario.__name__}") from failure
    async with app.state.sessionmaker() as session:
        report = await check_books(session)
    assert report.balanced, report
