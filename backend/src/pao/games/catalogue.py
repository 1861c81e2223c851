"""The demo game catalogue: the sixteen launch codes of spec §9, their categories, display
factors and original artwork (see :mod:`pao.games.art`). All are backed by the sandbox
provider. :func:`seed_games` is idempotent (``pao demo`` calls it on every run).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from pao.games.models import Game, GameCategory


@dataclass(frozen=True)
class DemoGame:
    code: str
    name: str
    category: GameCategory
    ft_wallet_slot: float
    hue: int  # the artwork's base hue
    # What the artwork draws, so that a card reads as its kind of game (pao.games.art.THEMES).
    theme: str = "slots"
    # The adapter behind it: the sandbox's transfer-mode provider, or a seamless aggregator.
    provider: str = "sandbox"


S, SP, L = GameCategory.SLOT, GameCategory.SPORT, GameCategory.LOTTO
DEMO_GAMES = (
    DemoGame("JOKER", "Joker", S, 1.0, 280, "slots"),
    DemoGame("SUPERSLOT", "Super Slot", S, 1.0, 20, "slots"),
    DemoGame("PG", "PG", S, 1.0, 200, "slots"),
    DemoGame("SLOTXO", "Slot XO", S, 1.0, 330, "slots"),
    DemoGame("AREASLOT", "Area Slot", S, 10.0, 150, "fishing"),
    DemoGame("SLOTRACHA", "Slot Racha", S, 1.0, 45, "slots"),
    DemoGame("PGSLOT", "PG Slot", S, 1.0, 180, "slots"),
    DemoGame("JOKER2", "Joker 2", S, 1.0, 260, "fishing"),
    DemoGame("SEXYGAME", "Sexy Game", SP, 1.0, 345, "casino"),
    DemoGame("BETFLIX", "Betflix", SP, 1.0, 0, "roulette"),
    DemoGame("ASKMEBET", "Askmebet", SP, 1.0, 120, "casino"),
    DemoGame("UFABET", "UFABET", SP, 1.0, 50, "sport"),
    DemoGame("IMI", "IMI", SP, 1.0, 220, "sport"),
    DemoGame("HUAYHD", "Huay HD", L, 1.0, 100, "lottery"),
    DemoGame("USUN", "USUN", L, 1.0, 30, "lottery"),
    DemoGame("CIRCUS", "Circus", L, 0.5, 300, "lottery"),
)
# Seamless aggregators (pao.games.seamless): one lobby card each, whose games play straight
# from the wallet. Seeded by `pao demo` beside the transfer-mode games.
SEAMLESS_DEMO_GAMES = (DemoGame("HUB88", "Hub88", S, 1.0, 170, "slots", provider="hub88"),)


def art_path(code: str, kind: str) -> str:
    """Where the SPA serves a game's artwork (frontend/public/games/…)."""
    return f"/games/{code.lower()}-{kind}.svg"


async def seed_games(
    session: AsyncSession, games: tuple[DemoGame, ...] = DEMO_GAMES, first_order: int = 0
) -> int:
    """Register the demo games that are missing; returns how many were added. Existing rows
    (an operator may have edited them) are left alone."""
    added = 0
    for order, demo in enumerate(games, start=first_order):
        if await session.get(Game, demo.code) is not None:
            continue
        session.add(
            Game(
                code=demo.code,
                name=demo.name,
                category=demo.category,
                provider=demo.provider,
                ft_wallet_slot=demo.ft_wallet_slot,
                logo=art_path(demo.code, "logo"),
                background=art_path(demo.code, "bg"),
                # The provider's own login page: it takes the credentials typed in, or handed over
                # in the link's fragment (pao.games.autologin.CREDENTIAL_FORM_CODES).
                # (A seamless aggregator's games open from their own launch links.)
                web=f"/sandbox/games/login/{demo.code}" if demo.provider == "sandbox" else None,
                android=None,
                ios=None,
                sort_order=order,
                enabled=True,
            )
        )
        added += 1
    await session.flush()
    return added
