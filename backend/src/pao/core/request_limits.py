"""How large a request body may be, by route (issue 15, finding 3).

Every body is bounded. A JSON or urlencoded body is held to :data:`DEFAULT_BODY_LIMIT`
(64 KiB): the largest the player app sends is a 2,000-character chat message (12 KB even when a
client escapes every Thai letter as ``\\uXXXX``); registration, login and the third parties'
callbacks are well under 2 KB. A route that takes more declares it once, in the map that
``create_app`` hands to :func:`pao.core.edge.install_edge` (``pao.main.BODY_LIMITS``), keyed by
operation id:

* an upload (:func:`upload_limit`): its documented file limit plus :data:`MULTIPART_OVERHEAD`
  for the multipart framing, for ``multipart/form-data`` bodies only — any other body sent to
  an upload route is held to the default, so nothing but a file part is ever that large;
* a JSON route whose valid bodies can exceed the default (:func:`json_limit`).

The edge (:mod:`pao.core.edge`) refuses a body larger than its route's limit with the limit's
refusal — HTTP 413 and a catalogue code: ``PAYLOAD_TOO_LARGE`` by default, the upload's own
code for uploads (``CHAT_FILE_TOO_LARGE`` with ``maxMb``, ``SLIP_INVALID_FILE``) — before the
body is read when ``Content-Length`` says so, and as soon as the bytes received pass the limit
otherwise (chunked bodies), never reading further.

:data:`FORM_LIMITS` bounds Starlette's multipart parser for every route (one file, a few small
text fields): no Pao form takes more; a route that needs more passes ``form_limits``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pao.core.errors import AppError
from pao.core.route_table import DeclaredRoute

KIB = 1024
DEFAULT_BODY_LIMIT = 64 * KIB
# The multipart framing around one file: boundaries, the part's headers (its file name may be
# a long UTF-8 name) and any small text fields.
MULTIPART_OVERHEAD = 64 * KIB
# Starlette's multipart parser: at most one file, a few text fields of at most 16 KiB each
# (its defaults are 1,000 files, 1,000 fields and 1 MiB per field). Typed loosely: FastAPI's
# TypedDict for it (``form_limits=``) is private.
FORM_LIMITS: Any = {"max_files": 1, "max_fields": 16, "max_part_size": 16 * KIB}


class PayloadTooLarge(AppError):
    """The request body is larger than its route takes (HTTP 413)."""

    status_code = 413
    code = "PAYLOAD_TOO_LARGE"


@dataclass(frozen=True)
class BodyLimit:
    """The largest body a route takes (framing included), and what a larger one is answered."""

    max_bytes: int
    refusal: AppError = field(default_factory=PayloadTooLarge)
    # True: the limit applies to multipart bodies (uploads); other bodies get the default.
    multipart: bool = False

    def __post_init__(self) -> None:
        if self.refusal.status_code != 413:
            raise ValueError("a body limit's refusal answers 413")


DEFAULT = BodyLimit(DEFAULT_BODY_LIMIT)


def upload_limit(file_bytes: int, refusal: AppError) -> BodyLimit:
    """An upload route's limit: the file's documented limit plus the multipart framing."""
    return BodyLimit(file_bytes + MULTIPART_OVERHEAD, refusal, multipart=True)


def json_limit(max_bytes: int) -> BodyLimit:
    """A JSON route whose valid bodies can be larger than the default."""
    return BodyLimit(max_bytes)


@dataclass(frozen=True)
class _RouteRule:
    methods: frozenset[str]
    path: re.Pattern[str]
    limit: BodyLimit


class RouteLimits:
    """The declared limits resolved to the app's routes; :meth:`limit_for` is per request."""

    def __init__(self, rules: Iterable[_RouteRule]) -> None:
        rules = list(rules)
        # Split by kind, so that a JSON request is matched against the (one or two) JSON rules
        # only: the withdrawal's POST pays one regular expression match at most.
        self._multipart = [rule for rule in rules if rule.limit.multipart]
        self._other = [rule for rule in rules if not rule.limit.multipart]

    def limit_for(self, method: str, path: str, *, multipart: bool) -> BodyLimit:
        for rule in self._multipart if multipart else self._other:
            if method in rule.methods and rule.path.match(path):
                return rule.limit
        return DEFAULT


def resolve_limits(routes: Iterable[DeclaredRoute], limits: Mapping[str, BodyLimit]) -> RouteLimits:
    """Tie each declared limit to its route; an operation id that names no route is an error
    (a renamed route must not silently fall back to the default)."""
    rules: list[_RouteRule] = []
    found: set[str] = set()
    for route in routes:
        operation = route.operation_id
        if operation is None or operation not in limits:
            continue
        found.add(operation)
        rules.append(_RouteRule(route.methods, route.path_regex, limits[operation]))
    missing = set(limits) - found
    if missing:
        raise ValueError(f"body limits name no route: {sorted(missing)}")
    return RouteLimits(rules)
