"""HTML of the sandbox aggregator's game page: a slot, or a table game with a side bet, and the
fault switch. Plain HTML with a little inline script, like the sandbox provider's pages."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from pao.sandbox.games.pages import page

_FAULTS = (
    ("none", "No fault"),
    ("timeout", "Time-out after Pao answered (rollback)"),
    ("duplicate", "Every call sent twice"),
    ("rollback_first", "Rollback overtakes the bet"),
    ("burst", "Ten bets at once"),
)

_SCRIPT = """
const fmt=v=>(v/100).toFixed(2);
const play=document.getElementById('play');
play.addEventListener('click',async()=>{
 play.disabled=true;const out=document.getElementById('outcome');
 const side=document.getElementById('side');
 const body={...session,stake:Number(document.getElementById('stake').value),
  side_stake:side?Number(side.value):0,fault:document.getElementById('fault').value};
 try{const r=await fetch('/sandbox/hub88/play/round',{method:'POST',
  headers:{'Content-Type':'application/json'},body:JSON.stringify(body)});
  const d=await r.json();
  document.getElementById('balance').textContent=fmt(d.balance);
  out.textContent=(d.status==='RS_OK'?'Round '+d.round+': staked '+fmt(d.staked)+', won '
   +fmt(d.payout):'Refused: '+d.status);
  document.getElementById('log').textContent=d.log.join('\\n');
 }catch(e){out.textContent='Error: '+e;}finally{play.disabled=false;}});
"""


def _script_json(value: dict[str, Any]) -> str:
    # Inside <script>, "</script>" in a value would end it: "<" is written as its escape.
    return json.dumps(value).replace("<", "\\u003c")


def play_page(
    *, game: str, table: bool, session: dict[str, Any], balance: int, lobby_url: str
) -> str:
    stakes = "".join(
        f'<option value="{minor}">{minor / 100:.2f}</option>' for minor in (100, 500, 1000, 5000)
    )
    side = (
        '<label for="side">Tie (side bet)</label><select id="side"><option value="0">none</option>'
        + stakes
        + "</select>"
        if table
        else ""
    )
    faults = "".join(f'<option value="{v}">{escape(label)}</option>' for v, label in _FAULTS)
    lobby = f'<p><a href="{escape(lobby_url)}">Back to the lobby</a></p>' if lobby_url else ""
    return page(
        f"{game} (sandbox aggregator)",
        f"<h1>{escape(game)}</h1><p>Seamless wallet: every bet and win is a call to Pao.</p>"
        f'<p class="balance">Balance: <output id="balance">{balance / 100000:.2f}</output></p>'
        '<p id="outcome" role="status" aria-live="polite">Place a bet to play.</p>'
        f'<label for="stake">{"Player" if table else "Bet"}</label><select id="stake">{stakes}'
        f"</select>{side}"
        f'<label for="fault">Aggregator fault</label><select id="fault">{faults}</select>'
        f'<button id="play" type="button">{"Deal" if table else "Spin"}</button>'
        f'<pre id="log" aria-label="Calls to Pao"></pre>{lobby}'
        f"<script>const session={_script_json(session)};{_SCRIPT}</script>",
    )
