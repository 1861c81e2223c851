"""Game provider adapters: the port (:mod:`.base`), the HTTP adapter (:mod:`.http`) and
:func:`provider_for`, which picks the adapter of a game.

Tests may put a factory in ``app.state.game_provider_factory`` (a fake provider); otherwise
every game whose ``provider`` is ``"sandbox"`` (all the demo games) gets the HTTP adapter
pointed at ``settings.game_provider_url`` — this very app's ``/sandbox/games/api`` when unset.
Either way the adapter comes wrapped in :class:`ObservedProvider`, so every call's outcome
feeds the provider health tracker (:mod:`pao.games.health`).
"""

from __future__ import annotations

from typing import Any

from pao.core.settings import Settings
from pao.games.providers.base import GameProvider
from pao.games.providers.http import HttpGameProvider
from pao.games.providers.observed import ObservedProvider

SANDBOX_API_KEY = "sandbox-games-key"


class ProviderNotConfigured(RuntimeError):
    pass


def provider_api_key(settings: Settings) -> str:
    if settings.game_provider_key:
        return settings.game_provider_key
    if settings.sandbox:
        return SANDBOX_API_KEY
    raise ProviderNotConfigured("PAO_GAME_PROVIDER_KEY is required when the sandbox is off")


def provider_url(settings: Settings) -> str:
    return settings.game_provider_url or f"{settings.base_url}/sandbox/games/api"


def provider_for(app: Any, *, game_code: str, timeout: float | None = None) -> GameProvider:
    return ObservedProvider(_adapter(app, game_code, timeout), app=app, code=game_code)


def _adapter(app: Any, game_code: str, timeout: float | None) -> GameProvider:
    factory = getattr(app.state, "game_provider_factory", None)
    if factory is not None:
        provider: GameProvider = factory(game_code)
        return provider
    settings: Settings = app.state.settings
    return HttpGameProvider(
        http=app.state.http,
        base_url=provider_url(settings),
        brand=game_code,
        api_key=provider_api_key(settings),
        timeout=timeout if timeout is not None else settings.game_provider_timeout_seconds,
    )
