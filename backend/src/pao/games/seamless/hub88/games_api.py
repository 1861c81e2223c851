"""Hub88's Games API, which Pao calls (signed with Pao's private key): the launch URL of a game
for a member's session token, and the game list kept in the seamless catalogue.

The game list may be asked at most once a minute (Hub88 answers 429 otherwise): the sync job
ticks every ten seconds but asks only when the catalogue is older than an hour (or empty) and
Hub88 has not answered a list call in the last minute; a call that never reached Hub88 (the
app's own first seconds, a network fault) is tried again at the next tick.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta
from typing import Any

import httpx
import structlog
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.core.settings import Settings
from pao.games.seamless.hub88 import PROVIDER
from pao.games.seamless.hub88.keys import keys_of, operator_id
from pao.games.seamless.hub88.signature import HEADER, sign
from pao.games.seamless.models import SeamlessGame
from pao.kit.clock import utcnow
from pao.kit.jobs import PeriodicJob

log = structlog.get_logger(__name__)

SYNC_EVERY = timedelta(hours=1)
LIST_EVERY_SECONDS = 60.0  # Hub88's limit on the game list
TIMEOUT_SECONDS = 10.0


class Hub88Error(RuntimeError):
    """Hub88 refused or did not answer (its ``{"error": …}`` text, or the HTTP failure)."""

    def __init__(self, message: str, *, answered: bool = True, status: int | None = None) -> None:
        super().__init__(message)
        self.answered = answered
        self.status = status  # Hub88's HTTP status, when it answered


def base_url(settings: Settings) -> str:
    return (settings.hub88_url or f"{settings.base_url}/sandbox/hub88").rstrip("/")


async def _post(app: Any, path: str, payload: dict[str, Any]) -> Any:
    settings: Settings = app.state.settings
    body = json.dumps({"operator_id": operator_id(settings), **payload}).encode()
    headers = {
        "Content-Type": "application/json",
        HEADER: sign(keys_of(app).operator_private, body),
    }
    http: httpx.AsyncClient = app.state.http
    try:
        response = await http.post(
            f"{base_url(settings)}/operator/generic/v2{path}",
            content=body,
            headers=headers,
            timeout=TIMEOUT_SECONDS,
        )
    except httpx.HTTPError as exc:
        raise Hub88Error(f"{path}: {type(exc).__name__}", answered=False) from exc
    try:
        answer = response.json()
    except ValueError as exc:
        raise Hub88Error(
            f"{path}: HTTP {response.status_code}, not JSON", status=response.status_code
        ) from exc
    if response.status_code != 200 or (isinstance(answer, dict) and "error" in answer):
        error = answer.get("error") if isinstance(answer, dict) else None
        raise Hub88Error(
            f"{path}: HTTP {response.status_code} {error or ''}".strip(),
            status=response.status_code,
        )
    return answer


async def game_url(
    app: Any,
    *,
    user: str,
    token: str,
    game_code: str,
    currency: str,
    country: str,
    lang: str,
    mobile: bool,
    lobby_url: str,
) -> str:
    answer = await _post(
        app,
        "/game/url",
        # The documented fields Pao has values for; the optional ones it has none for
        # (sub_partner_id, ip, supplier meta) are left out rather than sent as null.
        {
            "user": user,
            "token": token,
            "platform": "GPL_MOBILE" if mobile else "GPL_DESKTOP",
            "game_code": game_code,
            "currency": currency,
            "country": country,
            "lang": lang,
            "lobby_url": lobby_url,
        },
    )
    url = answer.get("url") if isinstance(answer, dict) else None
    if not isinstance(url, str) or not url.startswith(("https://", "http://")):
        raise Hub88Error("/game/url: no url in the answer")
    return url


async def list_games(app: Any) -> Any:
    """Hub88's game list as answered (one call a minute: Hub88 answers 429 otherwise)."""
    return await _post(app, "/game/list", {})


def _entry(raw: Any) -> tuple[str, str, str, str] | None:
    if not isinstance(raw, dict):
        return None
    code, name = raw.get("game_code"), raw.get("name")
    if not isinstance(code, str) or not isinstance(name, str) or not code or len(code) > 100:
        return None
    category = raw.get("category") if isinstance(raw.get("category"), str) else ""
    thumb = raw.get("url_thumb") if isinstance(raw.get("url_thumb"), str) else ""
    return code, name[:120], str(category)[:40], str(thumb)[:500]


async def sync_games(app: Any, session: AsyncSession) -> int:
    """Ask Hub88 for its game list and make the catalogue match it: new games added, known ones
    updated, games no longer listed disabled (a bet on them is refused). Returns the count."""
    answer = await list_games(app)
    entries = [e for e in map(_entry, answer if isinstance(answer, list) else []) if e]
    now = utcnow()
    known = {
        game.game_code: game
        for game in (
            await session.execute(select(SeamlessGame).where(SeamlessGame.provider == PROVIDER))
        ).scalars()
    }
    listed = set()
    for code, name, category, thumb in entries:
        listed.add(code)
        game = known.get(code)
        if game is None:
            session.add(
                SeamlessGame(
                    provider=PROVIDER,
                    game_code=code,
                    name=name,
                    category=category,
                    thumbnail=thumb,
                    synced_at=now,
                )
            )
            continue
        game.name, game.category, game.thumbnail = name, category, thumb
        game.enabled, game.synced_at = True, now
    for code, game in known.items():
        if code not in listed:
            game.enabled, game.synced_at = False, now
    await session.flush()
    return len(entries)


async def _sync_tick(app: Any) -> int:
    asked_at: float | None = getattr(app.state, "hub88_list_asked_at", None)
    if asked_at is not None and time.monotonic() - asked_at < LIST_EVERY_SECONDS:
        return 0
    async with app.state.sessionmaker() as session:
        last = await session.scalar(
            select(func.max(SeamlessGame.synced_at)).where(SeamlessGame.provider == PROVIDER)
        )
        if last is not None and utcnow() - last < SYNC_EVERY:
            return 0
        started = time.monotonic()
        try:
            count = await sync_games(app, session)
        except Hub88Error as exc:
            if exc.answered:
                app.state.hub88_list_asked_at = started
            log.warning("hub88.sync_failed", error=str(exc))
            return 0
        app.state.hub88_list_asked_at = started
        await session.commit()
        return count


SYNC_JOB = PeriodicJob(name="games.hub88_catalogue", interval_seconds=10, tick=_sync_tick)
