"""``GET /sandbox``: the sandbox's index, where staff and testers find its pages: the bank, the
LINE tester, TrueMoney's voucher page, and the AMB aggregator's games for a member.

AMB's games have no launch in Pao (ADR 0025), so this is where they are opened: the form takes
Pao's AMB username for the member (``m`` and the member id, as AMB's wire names a member) and
links to each game's page (``/sandbox/amb/play``). Hub88's games are launched from the player
app (they need Pao's launch token). Mounted with the rest of the sandbox, only when
``PAO_SANDBOX=1``.
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse

from pao.games.seamless.hub88.wire import member_of
from pao.kit.money import Currency
from pao.sandbox.amb import GAMES
from pao.sandbox.games.pages import page

router = APIRouter(include_in_schema=False)

_PAGES = (
    ("/sandbox/bank", "Bank: transfers, QR payments, slips, payouts"),
    ("/sandbox/line", "LINE: chat with the Official Account as a LINE user"),
    ("/sandbox/truemoney", "TrueMoney: gift vouchers"),
)


def amb_links(username: str, currency: Currency) -> str:
    """Links to each AMB game's page for one member."""
    items = "".join(
        f'<li><a href="/sandbox/amb/play?'
        f'{escape(urlencode({"username": username, "currency": currency.value, "game": code}))}">'
        f"{escape(name)} ({'table' if table else 'slot'})</a></li>"
        for code, (name, table) in GAMES.items()
    )
    return f"<ul>{items}</ul>"


@router.get("/sandbox", response_class=HTMLResponse)
async def index(
    username: str = Query(default="", max_length=40),
    currency: Currency = Query(default=Currency.THB),
) -> HTMLResponse:
    pages = "".join(f'<li><a href="{href}">{escape(label)}</a></li>' for href, label in _PAGES)
    currencies = "".join(
        f"<option{' selected' if c is currency else ''}>{c.value}</option>" for c in Currency
    )
    if not username:
        games = ""
    elif member_of(username) is None:
        games = f'<p class="error" role="alert">Not an AMB username: {escape(username)}</p>'
    else:
        games = (
            f"<p>Games for <strong>{escape(username)}</strong>:</p>{amb_links(username, currency)}"
        )
    return HTMLResponse(
        page(
            "Sandbox",
            "<h1>Sandbox</h1><p>Stand-ins for Pao's third parties (off in production).</p>"
            f"<ul>{pages}</ul>"
            "<h2>AMB aggregator games</h2>"
            '<form method="get" action="/sandbox">'
            '<label for="username">Member\'s AMB username (m + member id, e.g. m0042)</label>'
            f'<input id="username" name="username" value="{escape(username)}" required>'
            f'<label for="currency">Currency</label><select id="currency" name="currency">'
            f"{currencies}</select>"
            '<button type="submit">Show the games</button></form>'
            f"{games}",
        )
    )
