"""Who is on the other end of a request: the client address that throttles and audit rows use."""

from __future__ import annotations

from starlette.requests import HTTPConnection


def client_ip(connection: HTTPConnection) -> str:
    """The socket peer. Behind a proxy, uvicorn's proxy headers (FORWARDED_ALLOW_IPS) make it
    the client's address; see docs/security.md."""
    return connection.client.host if connection.client else "unknown"
