"""The Hub88 key pair an app uses, loaded once: the settings' keys, or with the sandbox on and
none set, Hub88's published demo pair (never for production: settings refuse the sandbox
there, and a configured operator id without keys stops start-up)."""

from __future__ import annotations

from typing import Any

from pao.core.settings import Settings
from pao.games.seamless.hub88.signature import (
    SANDBOX_PRIVATE_KEY,
    SANDBOX_PUBLIC_KEY,
    Keys,
    load_private,
    load_public,
)


def load_keys(settings: Settings) -> Keys:
    public = settings.hub88_public_key or (str(SANDBOX_PUBLIC_KEY) if settings.sandbox else "")
    private = settings.hub88_private_key or (str(SANDBOX_PRIVATE_KEY) if settings.sandbox else "")
    if not public or not private:
        raise RuntimeError("Hub88 needs PAO_HUB88_PUBLIC_KEY and PAO_HUB88_PRIVATE_KEY")
    return Keys(hub88_public=load_public(public), operator_private=load_private(private))


def keys_of(app: Any) -> Keys:
    keys: Keys | None = getattr(app.state, "hub88_keys", None)
    if keys is None:
        keys = app.state.hub88_keys = load_keys(app.state.settings)
    return keys


def operator_id(settings: Settings) -> int:
    """Pao's operator id at Hub88 (the sandbox's is 1)."""
    return settings.hub88_operator_id if settings.hub88_operator_id is not None else 1
