"""HTML of the sandbox provider's pages: a login form (which also takes the credentials handed
over in the link's fragment) and a three-reel slot machine.

Plain HTML with a little inline script: the provider is a stand-in for a third party's site,
not part of Pao's app. Every outcome is drawn on the server (``POST …/spin``).
"""

from __future__ import annotations

from html import escape

_STYLE = """
body{margin:0;font-family:system-ui,sans-serif;background:#14122b;color:#f4f1ff;
min-height:100vh;display:flex;align-items:center;justify-content:center}
main{width:min(360px,94vw);padding:20px;border-radius:16px;background:#221f45;
box-shadow:0 8px 30px #0008}
h1{font-size:1.3rem;margin:0 0 12px}
label{display:block;margin:10px 0 4px}
input,select,button{font-size:1rem;padding:10px;border-radius:8px;border:0;width:100%;
box-sizing:border-box}
button{margin-top:14px;background:#ffb300;color:#221f45;font-weight:700;cursor:pointer}
button:disabled{opacity:.5}
.reels{display:flex;gap:8px;justify-content:center;margin:16px 0}
.reel{width:84px;height:84px;border-radius:12px;background:#fff;color:#221f45;display:flex;
align-items:center;justify-content:center;font-weight:800;font-size:.8rem}
.balance{font-size:1.2rem}
.error{color:#ff8a80}
a{color:#ffd54f}
"""

# Words, not emoji: the reels must read the same on every device and font.
_SYMBOL_LABELS = {
    "CHERRY": "CHERRY",
    "LEMON": "LEMON",
    "BELL": "BELL",
    "STAR": "STAR",
    "SEVEN": "SEVEN 7",
}


def page(title: str, body: str) -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body><main>{body}</main></body></html>"
    )


# The credential hand-off of the launch codes whose provider takes the player's credentials
# on its own login page (pao.games.autologin.CREDENTIAL_FORM_CODES): the player app opens
# ``…/login/{brand}#username=…&password=…``. A fragment never reaches a server, a log or a
# Referer; the page drops it from the address bar, fills the form and sends it, so the player
# lands in the game logged in. After a failed attempt (``?error=1``) it does not send again.
_HANDOFF_SCRIPT = (
    "(()=>{const h=new URLSearchParams(location.hash.slice(1));"
    "const u=h.get('username'),p=h.get('password');if(!u||!p)return;"
    "history.replaceState(null,'',location.pathname+location.search);"
    "document.getElementById('u').value=u;document.getElementById('p').value=p;"
    "if(!new URLSearchParams(location.search).has('error'))"
    "document.querySelector('form').requestSubmit();})();"
)


def login_page(brand: str, *, error: bool) -> str:
    b = escape(brand)
    message = '<p class="error" role="alert">Wrong username or password</p>' if error else ""
    return page(
        f"{brand} sandbox login",
        f"<h1>{b} — sandbox login</h1>{message}"
        f'<form method="post" action="/sandbox/games/login/{b}">'
        '<label for="u">Username</label><input id="u" name="username" autocomplete="username" '
        "required>"
        '<label for="p">Password</label><input id="p" name="password" type="password" '
        'autocomplete="current-password" required>'
        '<button type="submit">Log in</button></form>'
        f"<script>{_HANDOFF_SCRIPT}</script>",
    )


def expired_page() -> str:
    return page("Session expired", "<h1>Session expired</h1><p>Launch the game again.</p>")


def play_page(brand: str, username: str, balance: int, token: str) -> str:
    b, u, t = escape(brand), escape(username), escape(token)
    labels = str(_SYMBOL_LABELS).replace("'", '"')
    return page(
        f"{brand} sandbox slot",
        f"<h1>{b} sandbox slot</h1><p>Player <strong>{u}</strong></p>"
        f'<p class="balance">Balance: <output id="balance">{balance / 100:.2f}</output></p>'
        '<div class="reels" aria-hidden="true"><div class="reel" id="r0">?</div>'
        '<div class="reel" id="r1">?</div><div class="reel" id="r2">?</div></div>'
        '<p id="outcome" role="status" aria-live="polite">Press spin to play.</p>'
        '<label for="bet">Bet</label><select id="bet">'
        '<option value="100">1.00</option><option value="500">5.00</option>'
        '<option value="1000">10.00</option><option value="5000">50.00</option></select>'
        '<button id="spin" type="button">Spin</button>'
        "<script>"
        f"const token={t!r};const labels={labels};"
        "const fmt=v=>(v/100).toFixed(2);"
        "document.getElementById('spin').addEventListener('click',async()=>{"
        "const btn=document.getElementById('spin');btn.disabled=true;"
        "const bet=Number(document.getElementById('bet').value);"
        "const out=document.getElementById('outcome');"
        "try{const r=await fetch('/sandbox/games/play/'+token+'/spin',{method:'POST',"
        "headers:{'Content-Type':'application/json'},body:JSON.stringify({bet})});"
        "const d=await r.json();"
        "if(!r.ok){out.textContent=d.error==='INSUFFICIENT_BALANCE'?"
        "'Not enough balance':'Error: '+d.error;return;}"
        "d.reels.forEach((s,i)=>{document.getElementById('r'+i).textContent=labels[s]||s;});"
        "document.getElementById('balance').textContent=fmt(d.balance);"
        "out.textContent='Result #'+d.betId+': '+d.reels.join(' | ')+' — bet '+fmt(d.bet)+', won '"
        "+fmt(d.payout);"
        "}finally{btn.disabled=false;}});"
        "</script>",
    )
