"""The sandbox aggregator's game page, shared by the dialects it speaks (Hub88's Wallet API,
AMB's Common Flow): the balance, the bet choices (one stake for a slot; several for a table
game), the fault switch, the outcome and the log of the calls to Pao.

Each dialect's router draws and plays the round on the server (``POST`` to its round endpoint,
which answers ``{round, staked, payout, status, balance, log}``, amounts in minor units); the
page only shows what Pao answered. Plain HTML with a little inline script, like the sandbox
provider's pages (:mod:`pao.sandbox.games.pages`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from html import escape
from typing import Any

from pao.sandbox.games.pages import page

STAKES = (100, 500, 1000, 5000)  # minor units


@dataclass(frozen=True)
class BetField:
    """One bet the player may place in a round: the round endpoint's JSON key for its stake."""

    field: str
    label: str
    optional: bool = False  # a side bet may be left out ("none", 0); a slot's stake may not
    default: int = STAKES[0]


# The round endpoint's answer is the same shape for both dialects, so one script plays both.
_SCRIPT = """
const fmt=v=>(v/100).toFixed(2);
const play=document.getElementById('play');
play.addEventListener('click',async()=>{
 play.disabled=true;const out=document.getElementById('outcome');
 const body={...session,fault:document.getElementById('fault').value};
 document.querySelectorAll('select[data-field]').forEach(s=>{body[s.dataset.field]=Number(s.value);});
 try{const r=await fetch(config.endpoint,{method:'POST',
  headers:{'Content-Type':'application/json'},body:JSON.stringify(body)});
  const d=await r.json();
  if(!r.ok){out.textContent='Refused: not a valid bet';return;}
  document.getElementById('balance').textContent=fmt(d.balance);
  out.textContent=(String(d.status)===String(config.ok)?'Round '+d.round+': staked '
   +fmt(d.staked)+', won '+fmt(d.payout)+(d.result?' ('+d.result+')':''):'Refused: '+d.status);
  document.getElementById('log').textContent=d.log.join('\\n');
 }catch(e){out.textContent='Error: '+e;}finally{play.disabled=false;}});
"""


def script_json(value: dict[str, Any]) -> str:
    # Inside <script>, "</script>" in a value would end it: "<" is written as its escape.
    return json.dumps(value).replace("<", "\\u003c")


def _select(bet: BetField) -> str:
    none = '<option value="0">none</option>' if bet.optional else ""
    options = "".join(
        f'<option value="{minor}"{" selected" if minor == bet.default else ""}>'
        f"{minor / 100:.2f}</option>"
        for minor in STAKES
    )
    name = escape(bet.field)
    return (
        f'<label for="bet-{name}">{escape(bet.label)}</label>'
        f'<select id="bet-{name}" data-field="{name}">{none}{options}</select>'
    )


def game_page(
    *,
    game: str,
    table: bool,
    bets: tuple[BetField, ...],
    faults: tuple[tuple[str, str], ...],
    endpoint: str,
    ok_status: str | int,
    session: dict[str, Any],
    balance: int,
    player: str = "",
    lobby_url: str = "",
) -> str:
    """The page of one launched game; ``balance`` in minor units, as Pao last answered it."""
    choices = "".join(_select(bet) for bet in bets)
    fault_options = "".join(f'<option value="{escape(v)}">{escape(t)}</option>' for v, t in faults)
    who = f"<p>Player <strong>{escape(player)}</strong></p>" if player else ""
    lobby = f'<p><a href="{escape(lobby_url)}">Back to the lobby</a></p>' if lobby_url else ""
    config = {"endpoint": endpoint, "ok": ok_status}
    return page(
        f"{game} (sandbox aggregator)",
        f"<h1>{escape(game)}</h1><p>Seamless wallet: every bet and win is a call to Pao.</p>"
        f"{who}"
        f'<p class="balance">Balance: <output id="balance">{balance / 100:.2f}</output></p>'
        '<p id="outcome" role="status" aria-live="polite">Place a bet to play.</p>'
        f"{choices}"
        f'<label for="fault">Aggregator fault</label><select id="fault">{fault_options}</select>'
        f'<button id="play" type="button">{"Deal" if table else "Spin"}</button>'
        f'<pre id="log" aria-label="Calls to Pao"></pre>{lobby}'
        f"<script>const session={script_json(session)};const config={script_json(config)};"
        f"{_SCRIPT}</script>",
    )
