"""The edge's scanners without an app: what each input counts as a control character."""

from __future__ import annotations

import pytest

from pao.core.input_text import (
    MultipartTextScanner,
    body_refusal,
    query_has_control,
)


@pytest.mark.parametrize(
    ("raw", "caught"),
    [
        (rb'{"a": "\u0000"}', True),
        (rb'{"a": "\u001F"}', True),
        (rb'{"a": "\u007f"}', True),
        (rb'{"a": "\u000B"}', True),
        (rb'{"a": "\b"}', True),
        (rb'{"a": "\f"}', True),
        (rb'{"a": "\\\u0000"}', True),  # \\ then \u0000
        (rb'{"a": "\\\\\\\u0001"}', True),  # three escaped backslashes, then \u0001
        (b'{"a": "\x00"}', True),
        (b'{"a": "\x7f"}', True),
        (rb'{"a": "\\u0000"}', False),  # a backslash, then the text u0000
        (rb'{"a": "\\\\u0000"}', False),
        (rb'{"a": "\\b\\f"}', False),
        (rb'{"a": "\t\n\r\u0009\u000a\u000D"}', False),
        (rb'{"a": "\u0020\u00e9\u0e01"}', False),
        (b'{\n\t"a":\r\n "b"}', False),
        (rb'{"a": "%00"}', False),
    ],
)
def test_json_scan(raw: bytes, caught: bool) -> None:
    assert (body_refusal(raw, b"application/json") is not None) is caught


def test_query_and_form_scans() -> None:
    assert query_has_control(b"a=%00")
    assert query_has_control(b"a=%0a")  # no line break in a query
    assert query_has_control(b"a=%7F")
    assert query_has_control(b"a=\x1b")
    assert not query_has_control(b"a=%20%e0%b8%81&b=%25&c=+")
    form = b"application/x-www-form-urlencoded"
    assert body_refusal(b"a=%0A%0d%09&b=\r\n", form) is None  # line breaks are fine in a body
    assert body_refusal(b"a=%1b", form) is not None
    assert body_refusal(b"a=\x00", form) is not None
    assert body_refusal(b"a=%2500", form) is None  # the text %00


def test_a_long_run_of_backslashes_costs_one_pass() -> None:
    # Even runs (escaped backslashes) before an escape-like text: no backtracking blow-up.
    body = b'{"a": "' + b"\\\\" * 30_000 + b'u0000"}'
    assert body_refusal(body, b"application/json") is None
    assert body_refusal(body.replace(b"u0000", b"\\u0000"), b"application/json") is not None


def test_the_refused_field_is_named_by_its_path() -> None:
    refused = body_refusal(rb'{"a": [1, {"b": "x\u0000"}]}', b"application/json")
    assert refused is not None
    assert (refused.status_code, refused.body()) == (
        422,
        {"message": "KEY_INVALID", "field": "a.1.b"},
    )
    invalid_json = body_refusal(b'{"a": "\x00"}', b"application/json")
    assert invalid_json is not None
    assert (invalid_json.status_code, invalid_json.body()) == (400, {"message": "KEY_INVALID"})
    form = body_refusal(b"a=1&b=x%00", b"application/x-www-form-urlencoded")
    assert form is not None
    assert form.body() == {"message": "KEY_INVALID", "field": "b"}
    assert body_refusal(b"a=1&b=x%0A", b"application/x-www-form-urlencoded") is None


BOUNDARY = b"xyz"


def _body(*parts: tuple[bytes, bytes]) -> bytes:
    out = b""
    for disposition, content in parts:
        out += b"--" + BOUNDARY + b"\r\nContent-Disposition: form-data; " + disposition
        out += b"\r\n\r\n" + content + b"\r\n"
    return out + b"--" + BOUNDARY + b"--\r\n"


def _scan(body: bytes, *, chunk: int, content_type: bytes = b"") -> dict[str, object] | None:
    scanner = MultipartTextScanner(content_type or b"multipart/form-data; boundary=" + BOUNDARY)
    for start in range(0, len(body), chunk):
        refused = scanner.feed(body[start : start + chunk], last=start + chunk >= len(body))
        if refused is not None:
            return refused.body()
    return None


TEXT_WITH_NUL = _body(
    (b'name="file"; filename="a.png"', b"\x00binary\x1b\x00"),
    (b'name="note"', b"line one\r\nline two\tend"),
    (b'name="comment"', b"bad\x00text"),
)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 4096])
def test_multipart_text_is_scanned_whatever_the_chunking(chunk: int) -> None:
    assert _scan(TEXT_WITH_NUL, chunk=chunk) == {"message": "KEY_INVALID", "field": "comment"}


def test_multipart_file_content_is_not_text() -> None:
    clean = _body((b'name="file"; filename="a.png"', b"\x00\x01\x02"), (b'name="n"', b"ok\n"))
    assert _scan(clean, chunk=5) is None


def test_multipart_names_and_charsets() -> None:
    bad_filename = _body((b'name="file"; filename="a\x07.png"', b"data"))
    assert _scan(bad_filename, chunk=9) == {"message": "KEY_INVALID", "field": "file"}
    bad_name = _body((b'name="fi\x01le"', b"data"))
    assert _scan(bad_name, chunk=9) == {"message": "KEY_INVALID"}
    # In UTF-7, "+AAA-" is NUL: a form in a charset where a control is not one byte is refused.
    utf7 = b"multipart/form-data; boundary=xyz; charset=utf-7"
    assert _scan(_body((b'name="n"', b"+AAA-")), chunk=9, content_type=utf7) == {
        "message": "KEY_INVALID"
    }
    latin1 = b"multipart/form-data; boundary=xyz; charset=latin-1"
    assert _scan(_body((b'name="n"', b"caf\xe9")), chunk=9, content_type=latin1) is None


def test_a_malformed_multipart_body_is_refused_at_once() -> None:
    # Issue 33 §3: Starlette would refuse it too, but only after the rest was read for nothing.
    malformed = {"message": "BODY_INVALID"}
    assert _scan(b"--xyz\r\nno headers end here\x00", chunk=4) == malformed
    assert _scan(b"no boundary at all", chunk=4, content_type=b"multipart/form-data") == malformed
