"""The tests' route memo (tests/route_memo.py): a route included by many apps is built once,
each app keeps its own dependency overrides, and no app is kept alive by the memo."""

from __future__ import annotations

import gc
import weakref
from typing import Annotated

import httpx
from fastapi import APIRouter, Depends, FastAPI

from tests import route_memo


def real_greeting() -> str:
    return "real"


def make_router() -> APIRouter:
    """A router of its own (a new endpoint: a route no other test built)."""
    router = APIRouter()

    @router.get("/greeting")
    async def greeting(word: Annotated[str, Depends(real_greeting)]) -> dict[str, str]:
        return {"word": word}

    return router


def make_app(router: APIRouter) -> FastAPI:
    app = FastAPI()
    app.include_router(router, prefix="/memo")
    return app


async def word_of(app: FastAPI) -> str:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://t"
    ) as client:
        answer = await client.get("/memo/greeting")
    assert answer.status_code == 200, answer.text
    word: str = answer.json()["word"]
    return word


async def test_a_route_is_built_once_and_each_app_keeps_its_overrides() -> None:
    router = make_router()
    first, second = make_app(router), make_app(router)
    before = route_memo.builds()
    assert await word_of(first) == "real"
    built = route_memo.builds()
    assert built == before + 1
    second.dependency_overrides[real_greeting] = lambda: "overridden"
    assert await word_of(second) == "overridden"
    assert route_memo.builds() == built, "the second app built the route again"
    assert await word_of(first) == "real", "an override leaked to another app"


async def test_the_memo_keeps_no_app_alive() -> None:
    app = make_app(make_router())
    assert await word_of(app) == "real"
    gone = weakref.ref(app)
    del app
    gc.collect()
    assert gone() is None
