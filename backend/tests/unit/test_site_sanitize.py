"""The HTML sanitiser keeps the safe formatting set and removes every way to run script."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from ada_url import URL
from hypothesis import given, settings
from hypothesis import strategies as st

from pao.site.sanitize import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, sanitize_html


class _Collector(HTMLParser):
    """Every start tag of the output with its attributes, as a browser would tokenise it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def _tags(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.tags


def _absolute_scheme(url: str) -> str | None:
    # As a browser reads it (WHATWG): None for a URL relative to the page.
    try:
        return URL(url).protocol
    except ValueError:
        return None


def assert_safe(html: str) -> None:
    for tag, attrs in _tags(html):
        assert tag in ALLOWED_TAGS, (tag, html)
        for name, value in attrs:
            allowed = ALLOWED_ATTRIBUTES.get(tag, set()) | ({"rel"} if tag == "a" else set())
            assert name in allowed, (tag, name, html)
            if name == "href":
                assert _absolute_scheme(value or "") in {"http:", "https:", "tel:", "mailto:"}, html
            if name == "src":
                assert _absolute_scheme(value or "") in {"http:", "https:"} or (
                    URL(value or "", "https://site.invalid/user/").origin == "https://site.invalid"
                ), html
    # Text may mention anything, but a literal "<" in text is always escaped.
    assert "<script" not in html.lower()


XSS_PAYLOADS = [
    "<script>alert(1)</script>",
    "<SCRIPT SRC=//evil.example/x.js></SCRIPT>",
    '<img src="x" onerror="alert(1)">',
    "<img src=x onerror=alert(1)//",
    '<a href="javascript:alert(1)">click</a>',
    '<a href="JaVaScRiPt:alert(1)">click</a>',
    '<a href=" javascript:alert(1)">click</a>',
    '<a href="java&#x09;script:alert(1)">click</a>',
    '<a href="&#106;avascript:alert(1)">click</a>',
    '<a href="vbscript:msgbox(1)">click</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
    '<img src="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=">',
    "<svg onload=alert(1)>",
    "<svg><script>alert(1)</script></svg>",
    '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
    "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
    '<math><mtext><table><mglyph><style><img src=x onerror="alert(1)">',
    '<iframe src="javascript:alert(1)"></iframe>',
    '<object data="javascript:alert(1)"></object>',
    '<embed src="javascript:alert(1)">',
    '<div style="background:url(javascript:alert(1))">x</div>',
    '<p onclick="alert(1)" onmouseover="alert(1)">x</p>',
    '<body onload="alert(1)">',
    '<form action="javascript:alert(1)"><button>x</button></form>',
    '<input autofocus onfocus="alert(1)">',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
    "<style>@import 'javascript:alert(1)';</style>",
    '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<base href="javascript:alert(1)//">',
    '<link rel="stylesheet" href="javascript:alert(1)">',
    "<!--<img src=x onerror=alert(1)>-->",
    '<a href="/relative/path">x</a>',
    '<img src="//evil.example/x.png">',
    '<img src="/\\evil.example/x.png">',
    '<img src="/&#9;/evil.example/x.png">',
    '<template><img src=x onerror="alert(1)"></template>',
    '<details open ontoggle="alert(1)">',
    '<a href="https://ok.example" target="_blank" rel="opener">x</a>',
]


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_payload_is_neutralised(payload: str) -> None:
    cleaned = sanitize_html(payload)
    assert_safe(cleaned)
    assert "alert(1)" not in _attribute_values(cleaned)


def _attribute_values(html: str) -> str:
    return " ".join(value or "" for _tag, attrs in _tags(html) for _name, value in attrs)


@pytest.mark.parametrize("payload", XSS_PAYLOADS)
def test_output_is_a_fixed_point(payload: str) -> None:
    # Sanitised on store and again on serve: the second pass must change nothing.
    once = sanitize_html(payload)
    assert sanitize_html(once) == once


def test_script_content_is_dropped_not_shown() -> None:
    assert sanitize_html("<p>hi</p><script>alert(1)</script>") == "<p>hi</p>"
    assert sanitize_html("<svg><text>boom</text></svg><b>ok</b>") == "<b>ok</b>"


def test_event_handlers_and_styles_are_removed() -> None:
    assert sanitize_html('<p style="color:red" onclick="x()" class="c" id="i">t</p>') == "<p>t</p>"
    assert sanitize_html('<img src="/a.png" onerror="alert(1)">') == '<img src="/a.png">'


def test_dangerous_urls_are_removed_but_the_text_stays() -> None:
    assert sanitize_html('<a href="javascript:alert(1)">go</a>') == (
        '<a rel="noopener noreferrer">go</a>'
    )
    assert sanitize_html('<a href="/internal">go</a>') == '<a rel="noopener noreferrer">go</a>'
    assert sanitize_html('<img src="//evil.example/x.png">') == "<img>"
    assert sanitize_html('<img src="data:image/png;base64,AAAA">') == "<img>"


def test_safe_markup_is_kept() -> None:
    html = (
        "<h2>Title</h2><p><b>b</b> <strong>s</strong> <i>i</i> <em>e</em> <u>u</u><br></p>"
        "<ul><li>one</li></ul><ol><li>two</li></ol><div><span>s</span></div>"
        '<img src="https://cdn.example/a.png" alt="QR"><img src="/media/qr.png">'
    )
    assert sanitize_html(html) == html


def test_links_keep_allowed_schemes_and_get_noopener() -> None:
    for href in ("https://line.me/R/ti/p/@pao", "http://a.example", "tel:+6621234567",
                 "mailto:support@pao.example"):  # fmt: skip
        assert sanitize_html(f'<a href="{href}">x</a>') == (
            f'<a href="{href}" rel="noopener noreferrer">x</a>'
        )
    # An attacker's own rel (e.g. opener) is replaced.
    assert sanitize_html('<a href="https://a.example" rel="opener">x</a>') == (
        '<a href="https://a.example" rel="noopener noreferrer">x</a>'
    )


def test_text_is_escaped_and_templates_survive() -> None:
    assert sanitize_html("a < b & c") == "a &lt; b &amp; c"
    assert sanitize_html("<p>below %percentFail%%</p>") == "<p>below %percentFail%%</p>"
    assert sanitize_html("ภาษาไทย ພາສາລາວ") == "ภาษาไทย ພາສາລາວ"


_fragments = st.sampled_from(
    [
        "<", ">", "/", "=", '"', "'", " ", "script", "img", "a", "svg", "p", "style",
        "onerror", "onload", "src", "href", "javascript:", "data:", "alert(1)", "&#x09;",
        "<!--", "-->", "<![CDATA[", "]]>", "iframe", "math", "x", "/media", "//",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(_fragments, max_size=40).map("".join))
def test_random_markup_never_yields_unsafe_output(markup: str) -> None:
    cleaned = sanitize_html(markup)
    assert_safe(cleaned)


@pytest.mark.parametrize(
    "unsafe",
    [
        '<img src="x" onerror="alert(1)">',
        '<a href="javascript:alert(1)">x</a>',
        "<script>alert(1)</script>",
        '<img src="//evil.example/x.png">',
        '<img src="/\\evil.example/x.png">',
        '<img src="/&#9;/evil.example/x.png">',
        '<a href=" javascript:alert(1)">x</a>',
        "<svg></svg>",
    ],
)
def test_the_safety_check_itself_catches_unsafe_markup(unsafe: str) -> None:
    with pytest.raises(AssertionError):
        assert_safe(unsafe)
