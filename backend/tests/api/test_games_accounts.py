"""Game accounts over the API: catalogue in the wallet, activation, credentials (own only),
reset password, balance refresh with a provider that does not answer, auto-login, and the
sandbox provider's login page and slot game."""

from __future__ import annotations

import re

import httpx
from fastapi import FastAPI

from pao.games.catalogue import DEMO_GAMES
from tests.games_support import activate, arm, funded_member, seed, username_of
from tests.helpers import auth, set_site_setting


async def test_wallet_lists_the_sixteen_games_with_factors(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)
    token, _ = await funded_member(client, 0)
    slots = (await client.get("/api/wallet", headers=auth(token))).json()["slots"]
    assert [s["code"] for s in slots] == [g.code for g in DEMO_GAMES]
    assert {s["category"] for s in slots} == {"slot", "sport", "lotto"}
    areaslot = next(s for s in slots if s["code"] == "AREASLOT")
    assert areaslot["ftWalletSlot"] == 10.0
    assert areaslot["isActive"] is False
    assert areaslot["amount"] == 0
    assert areaslot["logo"] == "/games/areaslot-logo.svg"


async def test_seed_is_idempotent(app: FastAPI) -> None:
    from pao.games.catalogue import seed_games

    async with app.state.sessionmaker() as session:
        assert await seed_games(session) == 16
        assert await seed_games(session) == 0
        await session.commit()


async def test_activate_then_credentials_then_reset(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)
    token, _ = await funded_member(client, 0)
    slot = await activate(client, token, "JOKER")
    assert slot["isActive"] is True
    assert slot["code"] == "JOKER"

    again = await client.get("/api/wallet/activate/JOKER", headers=auth(token))
    assert again.status_code == 400
    assert again.json() == {"message": "SLOT_ALREADY_ACTIVE"}

    creds = (await client.get("/api/wallet/account/JOKER", headers=auth(token))).json()
    assert creds["username"]
    assert creds["password"]

    reset = await client.get("/api/wallet/resetpassword/JOKER", headers=auth(token))
    assert reset.status_code == 200
    assert reset.json()["username"] == creds["username"]
    assert reset.json()["password"] != creds["password"]
    # The new password is what the member now reads back, and what the provider accepts.
    creds2 = (await client.get("/api/wallet/account/JOKER", headers=auth(token))).json()
    assert creds2 == reset.json()
    login = await client.post(
        "/sandbox/games/login/JOKER",
        data={"username": creds2["username"], "password": creds2["password"]},
    )
    assert login.status_code == 303
    assert login.headers["location"].startswith("/sandbox/games/play/")
    old = await client.post(
        "/sandbox/games/login/JOKER",
        data={"username": creds["username"], "password": creds["password"]},
    )
    assert old.headers["location"].endswith("?error=1")


async def test_activation_errors(app: FastAPI, client: httpx.AsyncClient) -> None:
    await seed(app)
    token, _ = await funded_member(client, 0)
    unknown = await client.get("/api/wallet/activate/NOPE", headers=auth(token))
    assert unknown.status_code == 404
    assert unknown.json() == {"message": "NO_GAME"}

    await arm(client, "error", operation="account")
    failed = await client.get("/api/wallet/activate/PG", headers=auth(token))
    assert failed.status_code == 400
    assert failed.json() == {"message": "SLOT_ACTIVATE_FAIL"}
    # Nothing was recorded: the next try works.
    assert (await client.get("/api/wallet/activate/PG", headers=auth(token))).status_code == 200

    await activate(client, token, "JOKER")
    await arm(client, "refuse", operation="account")
    reset = await client.get("/api/wallet/resetpassword/JOKER", headers=auth(token))
    assert reset.json() == {"message": "SLOT_RESET_PASSWORD_FAIL"}


async def test_credentials_are_the_owners_only(app: FastAPI, client: httpx.AsyncClient) -> None:
    await seed(app)
    alice, _ = await funded_member(client, 0)
    bob, _ = await funded_member(client, 0)
    await activate(client, alice, "JOKER")
    # Bob has no JOKER account: he gets his own "no account", never Alice's credentials.
    response = await client.get("/api/wallet/account/JOKER", headers=auth(bob))
    assert response.status_code == 404
    assert response.json() == {"message": "SLOT_NO_ACCOUNT"}
    assert (await client.get("/api/wallet/account/AREASLOT", headers=auth(bob))).json() == {
        "message": "NOT_AREASLOT"
    }
    assert (await client.get("/api/wallet/account/UFABET", headers=auth(bob))).json() == {
        "message": "NOT_UFABET"
    }
    assert (await client.get("/api/wallet/account/JOKER")).status_code == 401


async def test_autologin_only_for_own_account(app: FastAPI, client: httpx.AsyncClient) -> None:
    await seed(app)
    alice, alice_id = await funded_member(client, 0)
    bob, _ = await funded_member(client, 0)
    await activate(client, alice, "PG")
    await activate(client, alice, "ASKMEBET")
    await activate(client, bob, "PG")
    creds = (await client.get("/api/wallet/account/PG", headers=auth(alice))).json()

    link = await client.get(f"/api/autoLogin/pg/{creds['username']}", headers=auth(alice))
    assert link.status_code == 200, link.text
    url = link.json()["link"]
    assert "/sandbox/games/play/" in url
    page = await client.get(httpx.URL(url).path)
    assert page.status_code == 200
    assert creds["username"] in page.text

    # Bob asks with Alice's username: refused, no link.
    stolen = await client.get(f"/api/autoLogin/pg/{creds['username']}", headers=auth(bob))
    assert stolen.status_code == 404
    assert stolen.json() == {"message": "SLOT_NO_ACCOUNT"}
    assert "link" not in stolen.json()

    ask = (await client.get("/api/wallet/account/ASKMEBET", headers=auth(alice))).json()
    good = await client.get(
        f"/api/autoLogin/askmebet/{ask['username']}/{ask['password']}", headers=auth(alice)
    )
    assert good.status_code == 200
    wrong_pw = await client.get(
        f"/api/autoLogin/askmebet/{ask['username']}/nottheone", headers=auth(alice)
    )
    assert wrong_pw.status_code == 404
    areaslot = await client.get("/api/autoLogin/areaslot/someone", headers=auth(alice))
    assert areaslot.json() == {"message": "NOT_AREASLOT"}
    assert await username_of(app, alice_id, "PG") == creds["username"]


async def test_refresh_marks_a_silent_provider_stale(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)
    app.state.settings.game_balance_timeout_seconds = 5.0
    token, _ = await funded_member(client, 100_00)
    await activate(client, token, "JOKER")
    await activate(client, token, "PG")
    for code, amount in (("JOKER", 30), ("PG", 20)):
        moved = await client.post(
            "/api/wallet/transfer",
            json={"from": "WALLET", "to": code, "amount": amount},
            headers=auth(token),
        )
        assert moved.status_code == 200, moved.text
    # PG's balance calls hang; JOKER answers.
    await arm(client, "timeout", operation="balance", brand="PG", delay=15.0)
    refreshed = await client.get("/api/wallet/refresh/slot", headers=auth(token))
    assert refreshed.status_code == 200
    slots = {s["code"]: s for s in refreshed.json()["slots"]}
    assert slots["JOKER"]["amount"] == 30
    assert slots["JOKER"]["stale"] is False
    assert slots["PG"]["amount"] == 20
    assert slots["PG"]["stale"] is True
    assert slots["SLOTXO"]["isActive"] is False
    assert slots["SLOTXO"]["stale"] is False


async def test_launch_settings_and_ufa_host(app: FastAPI, client: httpx.AsyncClient) -> None:
    await seed(app)
    token, _ = await funded_member(client, 0)
    default = (await client.get("/api/games/settings", headers=auth(token))).json()
    assert default == {"launchInIframe": False, "ufaHost": ""}
    await set_site_setting(client, "gameLaunchIframe", True)
    await set_site_setting(client, "ufaHost", "https://ufa.example.com")
    changed = (await client.get("/api/games/settings", headers=auth(token))).json()
    assert changed == {"launchInIframe": True, "ufaHost": "https://ufa.example.com"}
    slots = (await client.get("/api/wallet", headers=auth(token))).json()["slots"]
    assert next(s for s in slots if s["code"] == "UFABET")["web"] == "https://ufa.example.com"
    assert next(s for s in slots if s["code"] == "PG")["web"] == "/sandbox/games/login/PG"


async def test_sandbox_slot_moves_money_and_records_bets(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await seed(app)
    token, _ = await funded_member(client, 50_00)
    await activate(client, token, "JOKER")
    moved = await client.post(
        "/api/wallet/transfer",
        json={"from": "WALLET", "to": "JOKER", "amount": 50},
        headers=auth(token),
    )
    assert moved.status_code == 200, moved.text
    creds = (await client.get("/api/wallet/account/JOKER", headers=auth(token))).json()
    login = await client.post("/sandbox/games/login/JOKER", data=creds)
    play = login.headers["location"]
    page = await client.get(play)
    assert "Balance" in page.text
    assert "50.00" in page.text
    token_part = re.sub(r".*/play/", "", play)
    balance = 50_00
    for _ in range(5):
        spin = await client.post(f"/sandbox/games/play/{token_part}/spin", json={"bet": 100})
        assert spin.status_code == 200, spin.text
        body = spin.json()
        assert len(body["reels"]) == 3
        balance += body["payout"] - body["bet"]
        assert body["balance"] == balance
    bad = await client.post(f"/sandbox/games/play/{token_part}/spin", json={"bet": 7})
    assert bad.status_code == 400
