"""Each launch code of spec §9 launches as the auto-login table says (issue 17, defect 7).

Codes with an auto-login route get a link from ``/api/autoLogin/<segment>/{u}[/{p}]`` that
opens the provider's game already logged in. The others hand the credentials to the provider's
own login page (the web link's fragment, read by the page's script — the browser test
``e2e/finish.spec.ts`` runs that script for JOKER); here the page must carry the hand-off and
accept exactly those credentials.
"""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from pao.games.autologin import AUTOLOGIN_PATHS, CREDENTIAL_FORM_CODES
from pao.games.catalogue import DEMO_GAMES
from tests.games_support import activate, funded_member, seed
from tests.helpers import auth

SEGMENT = {code: (segment, with_pw) for segment, (code, with_pw) in AUTOLOGIN_PATHS.items()}


def test_every_launch_code_has_one_launch_kind() -> None:
    codes = {game.code for game in DEMO_GAMES}
    assert codes == set(SEGMENT) | CREDENTIAL_FORM_CODES
    assert not set(SEGMENT) & CREDENTIAL_FORM_CODES


@pytest.mark.parametrize("code", [game.code for game in DEMO_GAMES])
async def test_launch_lands_logged_in(app: FastAPI, client: httpx.AsyncClient, code: str) -> None:
    await seed(app)
    token, _ = await funded_member(client, 0)
    await activate(client, token, code)
    creds = (await client.get(f"/api/wallet/account/{code}", headers=auth(token))).json()
    if code in SEGMENT:
        segment, with_pw = SEGMENT[code]
        path = f"/api/autoLogin/{segment}/{creds['username']}"
        if with_pw:
            path += f"/{creds['password']}"
            # The password is part of the route: without it there is no such route.
            bare = await client.get(
                f"/api/autoLogin/{segment}/{creds['username']}", headers=auth(token)
            )
            assert bare.status_code == 404
        answer = await client.get(path, headers=auth(token))
        assert answer.status_code == 200, answer.text
        play_url = httpx.URL(answer.json()["link"]).path
    else:
        slots = (await client.get("/api/wallet", headers=auth(token))).json()["slots"]
        web = next(slot["web"] for slot in slots if slot["code"] == code)
        login = await client.get(web)
        assert login.status_code == 200
        # The page reads the hand-off from the fragment and sends the form itself.
        assert "location.hash" in login.text
        assert "requestSubmit" in login.text
        wrong = await client.post(web, data={**creds, "password": "not-the-one"})
        assert wrong.headers["location"].endswith("?error=1")
        sent = await client.post(web, data=creds)
        assert sent.status_code == 303
        play_url = sent.headers["location"]
    page = await client.get(play_url)
    assert page.status_code == 200
    assert "sandbox slot" in page.text
    assert creds["username"] in page.text
