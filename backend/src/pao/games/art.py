"""Original artwork of the demo games, as SVG: a scene that reads as the game's kind (slot
machine, fishing, live-casino cards and chips, roulette, sport, lottery balls) in the game's own
colours, and a wordmark with the kind's emblem.

Drawn here from basic shapes; no third-party logo or trademark is used. ``python -m
pao.games.art DIR`` writes ``{code}-logo.svg`` (200×80) and ``{code}-bg.svg`` (300×211) for
every demo game into DIR (the repository keeps them in ``frontend/public/games/``, where the
card shows them: the scene as its background, the wordmark on top).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from html import escape
from pathlib import Path

from pao.games.catalogue import DEMO_GAMES, SEAMLESS_DEMO_GAMES, DemoGame


def _hsl(h: int, s: int, lightness: int) -> str:
    return f"hsl({h % 360},{s}%,{lightness}%)"


GOLD, GOLD_DARK, INK = "#ffd35c", "#b8860b", "#1b1230"
HEART = "M0 3C-2-1-7-2-7 2c0 3 4 6 7 9 3-3 7-6 7-9 0-4-5-3-7 1z"
SPADE = "M0-9C-3-4-8-1-8 3c0 3 4 4 7 1l-2 6h6l-2-6c3 3 7 2 7-1 0-4-5-7-8-12z"


def _reel(x: int, symbol: str) -> str:
    """One slot window at x with a seven, a cherry or a bar in it."""
    window = f'<rect x="{x}" y="62" width="36" height="52" rx="6" fill="#fff"/>'
    cx, cy = x + 18, 88
    if symbol == "7":
        art = (
            f'<path d="M{cx - 10} {cy - 14}h20l-11 28h-8l9-21h-10z" fill="#e0245e" '
            f'stroke="{INK}" stroke-width="1.5"/>'
        )
    elif symbol == "cherry":
        art = (
            f'<path d="M{cx - 5} {cy + 2}q2-14 10-16M{cx + 6} {cy + 4}q-1-12 -1-18" '
            'stroke="#2e7d32" stroke-width="2.5" fill="none"/>'
            f'<circle cx="{cx - 6}" cy="{cy + 7}" r="7" fill="#d81b60"/>'
            f'<circle cx="{cx + 6}" cy="{cy + 9}" r="7" fill="#e53935"/>'
        )
    else:
        art = (
            f'<rect x="{cx - 14}" y="{cy - 7}" width="28" height="14" rx="3" fill="{INK}"/>'
            f'<rect x="{cx - 11}" y="{cy - 3}" width="22" height="6" rx="1" fill="{GOLD}"/>'
        )
    return window + art


def _slots(h: int) -> str:
    bulbs = "".join(
        f'<circle cx="{166 + i * 18}" cy="40" r="4" fill="{GOLD if i % 2 else "#fff"}"/>'
        for i in range(7)
    )
    return (
        f'<rect x="150" y="26" width="136" height="112" rx="16" fill="{_hsl(h, 70, 22)}" '
        f'stroke="{GOLD}" stroke-width="4"/>{bulbs}'
        f"{_reel(160, '7')}{_reel(200, 'cherry')}{_reel(240, 'bar')}"
        f'<rect x="156" y="84" width="124" height="4" fill="#e53935" opacity=".75"/>'
        f'<path d="M286 98h8V52" stroke="{GOLD_DARK}" stroke-width="4" fill="none"/>'
        f'<circle cx="294" cy="48" r="7" fill="#e53935"/>'
    )


def _fish(x: int, y: int, size: float, colour: str, flip: bool = False) -> str:
    turn = f" scale({-size} {size})" if flip else f" scale({size})"
    return (
        f'<g transform="translate({x} {y}){turn}">'
        f'<path d="M-20 0c8-12 26-12 34 0-8 12-26 12-34 0z" fill="{colour}"/>'
        '<path d="M14 0l12-10v20z" fill="' + colour + '"/>'
        '<circle cx="-11" cy="-2" r="3" fill="#fff"/><circle cx="-11" cy="-2" r="1.5" '
        f'fill="{INK}"/><path d="M-2-8q4 8 0 16" stroke="#fff" stroke-width="1.5" '
        'fill="none" opacity=".6"/></g>'
    )


def _fishing(h: int) -> str:
    waves = "".join(
        f'<path d="M0 {y}q25-8 50 0t50 0 50 0 50 0 50 0 50 0" stroke="#fff" '
        f'stroke-width="2" fill="none" opacity=".{2 + i}"/>'
        for i, y in enumerate((44, 76, 108))
    )
    bubbles = "".join(
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="#fff" opacity=".6"/>'
        for x, y, r in ((180, 40, 4), (192, 28, 3), (262, 56, 5), (272, 40, 3))
    )
    return (
        f"{waves}{bubbles}"
        f"{_fish(210, 80, 1.6, _hsl(h + 30, 90, 60))}"
        f"{_fish(262, 122, 1.1, _hsl(h + 170, 85, 62), flip=True)}"
        f'<path d="M236 0v34a8 8 0 1 1-8 8" stroke="{GOLD}" stroke-width="3" fill="none"/>'
    )


def _card(x: int, y: int, angle: int, glyph: str, colour: str, rank: str) -> str:
    return (
        f'<g transform="translate({x} {y}) rotate({angle})">'
        '<rect x="-26" y="-38" width="52" height="76" rx="6" fill="#fff" '
        f'stroke="{INK}" stroke-opacity=".3"/>'
        f'<text x="-19" y="-20" font-family="Georgia,serif" font-size="16" font-weight="700" '
        f'fill="{colour}">{rank}</text>'
        f'<path d="{glyph}" transform="scale(1.9) translate(0 1)" fill="{colour}"/></g>'
    )


def _chips(x: int, y: int, colour: str, count: int) -> str:
    return "".join(
        f'<ellipse cx="{x}" cy="{y - i * 7}" rx="22" ry="8" fill="{colour}" '
        'stroke="#fff" stroke-width="2" stroke-dasharray="5 4"/>'
        for i in range(count)
    )


def _casino(h: int) -> str:
    table = (
        f'<ellipse cx="220" cy="200" rx="150" ry="70" fill="{_hsl(150, 60, 22)}" '
        f'stroke="{GOLD_DARK}" stroke-width="4"/>'
    )
    return (
        table
        + _card(196, 82, -14, SPADE, INK, "A")
        + _card(240, 78, 10, HEART, "#d81b60", "K")
        + _chips(168, 150, _hsl(h, 80, 50), 3)
        + _chips(276, 146, "#1565c0", 4)
    )


def _roulette(h: int) -> str:
    cx, cy, r = 222, 92, 64
    wedges = []
    for i in range(12):
        colour = "#2e7d32" if i == 0 else ("#c62828" if i % 2 else "#1b1b1b")
        wedges.append(
            f'<path d="M0 0L0-{r}A{r} {r} 0 0 1 {r * 0.5:.1f}-{r * 0.866:.1f}z" '
            f'fill="{colour}" transform="rotate({i * 30})"/>'
        )
    return (
        f'<g transform="translate({cx} {cy})">'
        f'<circle r="{r + 10}" fill="{GOLD_DARK}"/><circle r="{r + 6}" fill="{_hsl(h, 50, 18)}"/>'
        f"{''.join(wedges)}"
        f'<circle r="{r - 22}" fill="{_hsl(h, 40, 28)}" stroke="{GOLD}" stroke-width="3"/>'
        f'<path d="M0-16V16M-16 0H16" stroke="{GOLD}" stroke-width="5" stroke-linecap="round"/>'
        f'<circle r="6" fill="{GOLD}"/><circle cx="30" cy="-44" r="6" fill="#fff"/></g>'
    )


def _sport(h: int) -> str:
    stripes = "".join(
        f'<rect x="0" y="{150 + i * 16}" width="300" height="8" fill="#fff" opacity=".06"/>'
        for i in range(4)
    )
    pentagon = "M0-9l8.6 6.2-3.3 10.1h-10.6l-3.3-10.1z"
    ball = (
        '<g transform="translate(222 86)">'
        '<circle r="46" fill="#fff" stroke="#1b1b1b" stroke-width="2"/>'
        f'<path d="{pentagon}" transform="scale(1.5)" fill="#1b1b1b"/>'
        + "".join(
            f'<path d="{pentagon}" transform="rotate({a}) translate(0 -38) rotate(180) '
            'scale(1.05)" fill="#1b1b1b"/>'
            for a in (0, 72, 144, 216, 288)
        )
        + "</g>"
    )
    return (
        f'<path d="M0 150H300V211H0z" fill="{_hsl(130, 55, 28)}" opacity=".8"/>{stripes}'
        '<path d="M150 150v61M110 211a40 22 0 0 1 80 0" stroke="#fff" stroke-width="2" '
        'fill="none" opacity=".5"/>'
        f'<path d="M176 140q46 16 92 0" stroke="{_hsl(h, 20, 10)}" stroke-width="10" '
        'opacity=".25" fill="none"/>'
        f"{ball}"
        '<path d="M150 64h-24M156 84h-34M150 104h-20" stroke="#fff" stroke-width="3" '
        'stroke-linecap="round" opacity=".5"/>'
    )


def _lottery(h: int) -> str:
    balls = (
        (186, 110, 26, 0, "7"),
        (240, 76, 30, 60, "23"),
        (262, 132, 22, 200, "9"),
        (200, 54, 20, 130, "41"),
    )
    drawn = "".join(
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{_hsl(h + shift, 85, 55)}"/>'
        f'<circle cx="{x}" cy="{y}" r="{r * 0.58:.0f}" fill="#fff"/>'
        f'<circle cx="{x - r * 0.45:.0f}" cy="{y - r * 0.45:.0f}" r="{r * 0.18:.0f}" '
        'fill="#fff" opacity=".5"/>'
        f'<text x="{x}" y="{y + r * 0.22:.0f}" font-family="Verdana,Arial,sans-serif" '
        f'font-size="{r * 0.62:.0f}" font-weight="700" text-anchor="middle" fill="{INK}">'
        f"{label}</text>"
        for x, y, r, shift, label in balls
    )
    ticket = (
        '<g transform="translate(150 146) rotate(-8)">'
        f'<path d="M0 0h92v12a6 6 0 0 0 0 12v12H0V24a6 6 0 0 0 0-12z" fill="{GOLD}"/>'
        f'<path d="M12 12h52M12 22h36" stroke="{INK}" stroke-width="3" opacity=".5"/></g>'
    )
    return ticket + drawn


THEMES: dict[str, Callable[[int], str]] = {
    "slots": _slots,
    "fishing": _fishing,
    "casino": _casino,
    "roulette": _roulette,
    "sport": _sport,
    "lottery": _lottery,
}

# The wordmark's emblem per kind, drawn in a 28×28 box around (0, 0).
EMBLEMS: dict[str, str] = {
    "slots": f'<path d="M-7-10h14l-8 20h-6l7-14h-7z" fill="{INK}"/>',
    "fishing": '<path d="M-11 0c5-8 15-8 19 0-4 8-14 8-19 0zM8 0l7-6v12z" fill="' + INK + '"/>',
    "casino": f'<path d="{SPADE}" fill="{INK}"/>',
    "roulette": f'<circle r="10" fill="none" stroke="{INK}" stroke-width="3"/>'
    f'<circle r="3" fill="{INK}"/>',
    "sport": f'<circle r="10" fill="#fff" stroke="{INK}" stroke-width="2"/>'
    f'<path d="M0-5l4.8 3.5-1.8 5.6h-6l-1.8-5.6z" fill="{INK}"/>',
    "lottery": f'<circle r="10" fill="#fff" stroke="{INK}" stroke-width="2"/>'
    f'<text y="4" font-family="Verdana,Arial,sans-serif" font-size="11" font-weight="700" '
    f'text-anchor="middle" fill="{INK}">8</text>',
}


def logo_svg(game: DemoGame) -> str:
    h = game.hue
    name = escape(game.name.upper())
    size = 30 if len(name) <= 7 else 22
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 80" width="200" height="80" '
        f'role="img" aria-label="{escape(game.name)}">'
        '<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1">'
        f'<stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="{GOLD}"/>'
        "</linearGradient></defs>"
        f'<g transform="translate(28 40)"><circle r="20" fill="{GOLD}" stroke="#fff" '
        f'stroke-width="3"/>{EMBLEMS[game.theme]}</g>'
        f'<text x="58" y="{40 + size // 3}" font-family="Verdana,Arial,sans-serif" '
        f'font-size="{size}" font-weight="800" fill="url(#g)" stroke="{_hsl(h, 70, 18)}" '
        f'stroke-width="3" paint-order="stroke">{name}</text></svg>\n'
    )


def background_svg(game: DemoGame) -> str:
    h = game.hue
    sparkles = "".join(
        f'<circle cx="{(i * 67 + h) % 300}" cy="{(i * 41 + h // 2) % 140}" r="{1 + i % 3}" '
        'fill="#fff" opacity=".35"/>'
        for i in range(10)
    )
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 211" width="300" height="211" '
        'aria-hidden="true">'
        '<defs><radialGradient id="b" cx=".72" cy=".4" r=".9">'
        f'<stop offset="0" stop-color="{_hsl(h, 65, 42)}"/>'
        f'<stop offset="1" stop-color="{_hsl(h + 25, 70, 12)}"/></radialGradient></defs>'
        f'<rect width="300" height="211" fill="url(#b)"/>{sparkles}'
        f"{THEMES[game.theme](h)}</svg>\n"
    )


def write_all(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for game in (*DEMO_GAMES, *SEAMLESS_DEMO_GAMES):
        for kind, svg in (("logo", logo_svg(game)), ("bg", background_svg(game))):
            path = directory / f"{game.code.lower()}-{kind}.svg"
            path.write_text(svg, encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a developer tool
    for written_path in write_all(Path(sys.argv[1])):
        print(written_path)
