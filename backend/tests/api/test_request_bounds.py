"""Integers a request carries fit the database (pao.core.params): ids of 2^63 and more answer
422 KEY_INVALID instead of a 500 on PostgreSQL; every integer input of every route, the
sandbox's included, declares its bounds; and a boolean is not a number."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.openapi.utils import get_openapi
from fastapi.routing import APIRoute, iter_route_contexts
from pydantic import BaseModel

from pao.core.params import MAX_DB_INT, RequestModel, refuses_bool
from pao.core.settings import Settings
from pao.main import create_app
from tests.api.test_chat_agents import add_agent
from tests.chat_media import PNG
from tests.helpers import app_of, auth, register_and_login, set_site_setting
from tests.staff_helpers import log_in

TOO_BIG = [2**63, 10**30]


def every_route_schema(settings: Settings) -> dict[str, Any]:
    """The OpenAPI document of every route, the ones hidden from the contract included."""
    app = create_app(settings)
    routes: list[APIRoute] = []
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if isinstance(route, APIRoute):
            shown = copy.copy(route)
            shown.include_in_schema = True
            routes.append(shown)
    return get_openapi(title="every route", version="0", routes=routes)


def integer_inputs(spec: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, schema) of each integer a request may carry: parameters and body properties."""
    components = spec.get("components", {}).get("schemas", {})

    def walk(schema: Any, where: str, seen: frozenset[str]) -> Iterator[tuple[str, Any]]:
        if not isinstance(schema, dict):
            return
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                yield from walk(components[name], f"{where}->{name}", seen | {name})
            return
        if schema.get("type") == "integer":
            yield where, schema
        for key in ("anyOf", "oneOf", "allOf"):
            for option in schema.get(key, []):
                yield from walk(option, where, seen)
        for name, prop in schema.get("properties", {}).items():
            yield from walk(prop, f"{where}.{name}", seen)
        yield from walk(schema.get("items"), f"{where}[]", seen)
        yield from walk(schema.get("additionalProperties"), f"{where}{{}}", seen)

    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            at = f"{method.upper()} {path}"
            for parameter in operation.get("parameters", []):
                where = f"{at} {parameter['in']}:{parameter['name']}"
                yield from walk(parameter.get("schema"), where, frozenset())
            for content in operation.get("requestBody", {}).get("content", {}).values():
                yield from walk(content.get("schema"), f"{at} body", frozenset())


def test_every_integer_input_is_bounded_to_the_database(tmp_path: Path) -> None:
    settings = Settings(env="test", sandbox=True, data_dir=tmp_path, static_dir=tmp_path)
    inputs = list(integer_inputs(every_route_schema(settings)))
    # The walk finds what it should (a path id, a page number, a hidden sandbox body field).
    found = {where for where, _ in inputs}
    assert "GET /api/statement/slip/image/{slip_id} path:slip_id" in found
    assert any(where.startswith("POST /api/statement body") for where in found)
    assert any(where.startswith("POST /sandbox/games/play/{token}/spin") for where in found)
    unbounded = [
        where
        for where, schema in inputs
        if schema.get("maximum", schema.get("exclusiveMaximum", MAX_DB_INT + 1)) > MAX_DB_INT
        or schema.get("minimum", schema.get("exclusiveMinimum", -(2**63) - 1)) < -(2**63)
    ]
    assert unbounded == []


def test_every_request_model_with_a_number_refuses_booleans(tmp_path: Path) -> None:
    """A body or query model with a number field must be a RequestModel, so a new route's
    model cannot take ``true`` for ``1`` (pao.core.params)."""
    settings = Settings(env="test", sandbox=True, data_dir=tmp_path, static_dir=tmp_path)
    app = create_app(settings)
    lax: set[str] = set()
    for context in iter_route_contexts(app.routes):
        route = context.original_route
        if not isinstance(route, APIRoute):
            continue
        params = route.dependant.body_params + route.dependant.query_params
        for param in params:
            model = param.field_info.annotation
            if not (isinstance(model, type) and issubclass(model, BaseModel)):
                continue
            numbers = [f for f in model.model_fields.values() if refuses_bool(f.annotation)]
            if numbers and not issubclass(model, RequestModel):
                lax.add(f"{route.path} {model.__name__}")
    assert lax == set()


@pytest.mark.parametrize("slip_id", TOO_BIG)
async def test_a_slip_id_beyond_the_database_is_refused(
    client: httpx.AsyncClient, slip_id: int
) -> None:
    _, token = await register_and_login(client)
    response = await client.get(f"/api/statement/slip/image/{slip_id}", headers=auth(token))
    assert response.status_code == 422, response.text
    assert response.json() == {"message": "KEY_INVALID", "field": "slip_id"}
    # The largest id is valid: it is merely not there.
    largest = await client.get(f"/api/statement/slip/image/{MAX_DB_INT}", headers=auth(token))
    assert largest.status_code == 404
    assert largest.json() == {"message": "NO_DATA"}


@pytest.mark.parametrize("spelling", ["1.0", "+1", " 1", "1_0", "0x1", "１"])
async def test_a_path_id_is_written_in_digits(client: httpx.AsyncClient, spelling: str) -> None:
    # Lax int parsing takes most of these as 1 (or 10): another spelling of an id is no id.
    _, token = await register_and_login(client)
    response = await client.get(f"/api/statement/slip/image/{spelling}", headers=auth(token))
    assert response.status_code == 422, response.text
    assert response.json() == {"message": "KEY_INVALID", "field": "slip_id"}


async def test_conversation_ids_beyond_the_database_are_refused(
    client: httpx.AsyncClient,
) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    agent = auth(await log_in(client, await add_agent(app_of(client))))
    png = {"file": ("a.png", PNG, "image/png")}
    for conversation in [*TOO_BIG, MAX_DB_INT]:
        base = f"/api/agent/conversations/{conversation}"
        calls = [
            await client.get(f"{base}/messages", headers=agent),
            await client.post(
                f"{base}/messages",
                headers=agent,
                json={"message": {"message_type": "text", "payload": "hi"}},
            ),
            await client.put(f"{base}/read", headers=agent),
            await client.post(f"{base}/upload-image", headers=agent, files=png),
            await client.post(f"{base}/upload-video", headers=agent, files=png),
        ]
        for call in calls:
            if conversation == MAX_DB_INT:
                assert call.status_code == 404, (call.request.url, call.text)
            else:
                assert call.status_code == 422, (call.request.url, call.text)
                body = call.json()
                assert (body["message"], body["field"]) == ("KEY_INVALID", "conversation_id")


@pytest.mark.parametrize(
    ("body", "field"),
    [({"page": True}, "page"), ({"limit": False}, "limit"), ({"page": 1, "limit": True}, "limit")],
)
async def test_a_boolean_is_not_a_page_number(
    client: httpx.AsyncClient, body: dict[str, Any], field: str
) -> None:
    _, token = await register_and_login(client)
    response = await client.post("/api/statement", json=body, headers=auth(token))
    assert response.status_code == 422, response.text
    assert response.json() == {"message": "KEY_INVALID", "field": field}


async def test_numbers_and_numeric_strings_stay_accepted(client: httpx.AsyncClient) -> None:
    _, token = await register_and_login(client)
    for body in ({"page": 1, "limit": 10}, {"page": "1", "limit": "10"}):
        response = await client.post("/api/statement", json=body, headers=auth(token))
        assert response.status_code == 200, (body, response.text)


async def test_a_boolean_is_not_a_history_size(client: httpx.AsyncClient) -> None:
    await set_site_setting(client, "enableChatWidget", True)
    _, token = await register_and_login(client)
    response = await client.post(
        "/api/chat/history", json={"limit": True, "skip": 0}, headers=auth(token)
    )
    assert response.status_code == 422, response.text
    assert response.json() == {"message": "KEY_INVALID", "field": "limit"}
