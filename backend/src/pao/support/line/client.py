"""The line-bot-sdk (v3) clients Pao calls LINE with, over the app's own HTTP client.

Every call goes through one SDK ``Configuration``: its ``host`` is ``PAO_LINE_API_URL`` (the
sandbox's ``/sandbox/line`` with ``PAO_SANDBOX=1``), or unset for LINE's own two hosts. The
SDK's async client speaks aiohttp; :class:`_HttpxRest` replaces that one layer (the SDK's
``rest_client``: method, URL, headers, body in; status, headers, bytes out) with the app's
``httpx.AsyncClient``, so LINE calls share its timeouts and the tests' in-process transport,
while requests, models and errors (``ApiException``) stay the SDK's own. The access token is
only ever in the ``Authorization`` header the SDK sets; nothing here logs a header.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import httpx
from linebot.v3.messaging import (
    AsyncApiClient,
    AsyncMessagingApi,
    AsyncMessagingApiBlob,
    Configuration,
)
from linebot.v3.messaging.exceptions import ApiException

from pao.core.settings import Settings

# A LINE call taking longer is a failure to retry (the outbox's retry key keeps a push single).
TIMEOUT_SECONDS = 10.0


class _Response:
    """What the SDK reads of a response (its ``RESTResponse``'s attributes)."""

    def __init__(self, response: httpx.Response) -> None:
        self.status = response.status_code
        self.reason = response.reason_phrase
        self.data = response.content
        self._headers = response.headers

    def getheaders(self) -> dict[str, str]:
        return dict(self._headers)

    def getheader(self, name: str, default: str | None = None) -> str | None:
        value: str | None = self._headers.get(name, default)
        return value


class _HttpxRest:
    """The SDK's REST layer on httpx: only JSON bodies and GETs, all that Pao calls use."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def close(self) -> None:
        return None  # the app's client is closed by the app

    async def request(
        self,
        method: str,
        url: str,
        query_params: Any = None,
        headers: dict[str, str] | None = None,
        body: Any = None,
        post_params: Any = None,
        _preload_content: bool = True,
        _request_timeout: Any = None,
    ) -> _Response:
        content = None if body is None else json.dumps(body).encode()
        headers = dict(headers or {})
        if content is not None:
            headers.setdefault("Content-Type", "application/json")
        response = await self.http.request(
            method, url, headers=headers, content=content, timeout=TIMEOUT_SECONDS
        )
        wrapped = _Response(response)
        if not 200 <= wrapped.status <= 299:
            raise ApiException(http_resp=wrapped)
        return wrapped

    async def get_request(self, url: str, **kwargs: Any) -> _Response:
        return await self.request("GET", url, **kwargs)

    async def post_request(self, url: str, **kwargs: Any) -> _Response:
        return await self.request("POST", url, **kwargs)


@dataclass(frozen=True)
class LineApi:
    """The two SDK APIs Pao uses: messages (reply, push, profile) and blobs (content)."""

    messaging: AsyncMessagingApi
    blob: AsyncMessagingApiBlob


async def open_line_api(settings: Settings, http: httpx.AsyncClient) -> LineApi:
    """The SDK's clients, pointed at ``settings``' host, over ``http`` (call in a coroutine:
    the SDK opens an aiohttp session when built, closed here at once)."""
    configuration = Configuration(
        host=settings.resolved_line_api_url, access_token=settings.line_access_token
    )
    client = AsyncApiClient(configuration)
    await client.rest_client.close()
    client.rest_client = _HttpxRest(http)
    return LineApi(messaging=AsyncMessagingApi(client), blob=AsyncMessagingApiBlob(client))


def error_of(error: Exception) -> str:
    """A failure as one short line for the stored ``last_error`` (no header, no token)."""
    if isinstance(error, ApiException):
        body = error.body if isinstance(error.body, str) else ""
        return f"HTTP {error.status}: {body[:300]}"
    return f"{type(error).__name__}: {str(error)[:300]}"
