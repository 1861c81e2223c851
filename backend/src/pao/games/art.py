"""Original artwork of the demo games: abstract shapes and the game's name, as SVG.

No third-party logo is used. ``python -m pao.games.art DIR`` writes
``{code}-logo.svg`` (200×80) and ``{code}-bg.svg`` (300×211) for every demo game into DIR
(the repository keeps them in ``frontend/public/games/``).
"""

from __future__ import annotations

import sys
from html import escape
from pathlib import Path

from pao.games.catalogue import DEMO_GAMES, DemoGame


def _hsl(h: int, s: int, lightness: int) -> str:
    return f"hsl({h % 360},{s}%,{lightness}%)"


def logo_svg(game: DemoGame) -> str:
    h = game.hue
    name = escape(game.name.upper())
    size = 30 if len(name) <= 7 else 22
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 80" width="200" height="80" '
        f'role="img" aria-label="{escape(game.name)}">'
        f'<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">'
        f'<stop offset="0" stop-color="{_hsl(h, 90, 62)}"/>'
        f'<stop offset="1" stop-color="{_hsl(h + 40, 85, 45)}"/></linearGradient></defs>'
        f'<rect x="4" y="8" width="192" height="64" rx="32" fill="url(#g)"/>'
        f'<circle cx="34" cy="40" r="18" fill="{_hsl(h + 180, 80, 70)}" opacity=".9"/>'
        f'<path d="M26 40 l8 -10 l8 10 l-8 10z" fill="{_hsl(h, 60, 25)}"/>'
        f'<text x="118" y="{40 + size // 3}" font-family="Verdana,Arial,sans-serif" '
        f'font-size="{size}" font-weight="700" text-anchor="middle" fill="#fff" '
        f'stroke="{_hsl(h, 60, 25)}" stroke-width="1">{name}</text></svg>\n'
    )


def background_svg(game: DemoGame) -> str:
    h = game.hue
    circles = "".join(
        f'<circle cx="{(i * 67 + h) % 300}" cy="{(i * 41 + h // 2) % 211}" '
        f'r="{18 + (i * 13) % 40}" '
        f'fill="{_hsl(h + i * 25, 80, 60)}" opacity=".22"/>'
        for i in range(9)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 211" width="300" height="211" '
        'aria-hidden="true">'
        f'<defs><linearGradient id="b" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="{_hsl(h, 55, 30)}"/>'
        f'<stop offset="1" stop-color="{_hsl(h + 30, 60, 14)}"/></linearGradient></defs>'
        f'<rect width="300" height="211" fill="url(#b)"/>{circles}'
        f'<path d="M0 170 Q75 140 150 170 T300 170 V211 H0z" fill="{_hsl(h + 200, 50, 20)}" '
        'opacity=".6"/></svg>\n'
    )


def write_all(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for game in DEMO_GAMES:
        for kind, svg in (("logo", logo_svg(game)), ("bg", background_svg(game))):
            path = directory / f"{game.code.lower()}-{kind}.svg"
            path.write_text(svg, encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a developer tool
    for written_path in write_all(Path(sys.argv[1])):
        print(written_path)
