"""The URL check (pao.kit.urls) against the vectors the player app is tested with too.

``contract/url-vectors.json`` says, per value, which policies accept it; the frontend's
``safe-url.test.ts`` reads the same file. Each field that takes a URL is checked against the
table as well, to prove it goes through the one check.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from pao.core.settings import REPO_ROOT
from pao.kit.urls import LINK, POLICIES, SITE_OR_WEB, WEB, check_url, safe_url
from pao.site.content import SafeUrl
from pao.site.sanitize import sanitize_html
from pao.support.schemas import LinkUrl

VECTORS: list[dict[str, Any]] = json.loads(
    (REPO_ROOT / "contract" / "url-vectors.json").read_text(encoding="utf-8")
)["vectors"]


def _id(vector: dict[str, Any]) -> str:
    return repr(vector["value"])


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_vector(vector: dict[str, Any]) -> None:
    verdicts = {
        name: safe_url(vector["value"], policy) is not None for name, policy in POLICIES.items()
    }
    assert verdicts == {name: vector[name] for name in POLICIES}, vector["why"]


def _accepts(adapter: TypeAdapter[str], value: str) -> bool:
    try:
        adapter.validate_python(value)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_fields_follow_the_table(vector: dict[str, Any]) -> None:
    value = vector["value"]
    # Operator settings' URLs (site links, images, videos, the UFABET host) and chat cards.
    assert _accepts(TypeAdapter(SafeUrl), value) is vector["siteOrWeb"]
    # Chat buttons open a new tab: absolute http(s) only, at most 2000 characters.
    assert _accepts(TypeAdapter(LinkUrl), value) is vector["web"]


# An HTML attribute cannot carry a NUL (the parser reads it as U+FFFD).
HTML_VECTORS = [vector for vector in VECTORS if "\0" not in vector["value"]]


@pytest.mark.parametrize("vector", HTML_VECTORS, ids=_id)
def test_operator_html_follows_the_table(vector: dict[str, Any]) -> None:
    attribute = escape(vector["value"], quote=True)
    # Images may be on the site or anywhere on the web; links must be absolute.
    assert ("src=" in sanitize_html(f'<img src="{attribute}">')) is vector["siteOrWeb"]
    assert ("href=" in sanitize_html(f'<a href="{attribute}">x</a>')) is vector["link"]


def test_the_stored_value_is_what_the_browser_reads() -> None:
    assert check_url("  https://ok.example/x\n", WEB) == "https://ok.example/x"
    assert check_url("\x01/media/a\tb.png ", SITE_OR_WEB) == "/media/ab.png"
    assert safe_url("\ud800", LINK) is None  # a lone surrogate is not a URL; never raises
    with pytest.raises(ValueError, match="absolute http"):
        check_url("/\\evil.example", WEB)
