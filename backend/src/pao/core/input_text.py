"""What counts as a control character in each kind of request input, and which field holds it.

Issue 15, finding 2: PostgreSQL cannot store NUL in ``text`` and answered 500. The edge
(:mod:`pao.core.edge`) refuses control characters once, for every route, with the scanners here:

* C0 controls (U+0000–U+001F) and DEL (U+007F) are refused in every text input;
* TAB, LF and CR are allowed in bodies (a chat message has line breaks), never in the path or
  the query string.

Each input is scanned in the form the app will decode it from, over the raw bytes (a C-speed
``bytes.translate`` for the control bytes, one compiled regular expression for their escapes),
so that nothing is decoded or parsed twice on the way in:

* the path: the server's already decoded ``scope["path"]``;
* the query string and urlencoded bodies: raw control bytes, and ``%XX`` escapes of them
  (Starlette decodes ``%XX`` as UTF-8; no multi-byte sequence decodes to a C0 character);
* JSON (any body that is not a form: every Pao route that reads a body reads JSON): raw
  control bytes (JSON allows only TAB, LF and CR between tokens, and DEL unescaped in strings),
  and the escapes ``\\u0000``–``\\u001f``, ``\\u007f``, ``\\b`` and ``\\f`` — but only an escape
  that starts with an odd run of backslashes: ``"\\\\u0000"`` is a backslash and the text
  ``u0000``, which a password may well contain. A lone surrogate (``\\ud800``) cannot be stored
  either; pydantic refuses it in every ``str`` field (422 ``KEY_INVALID``), so it is left to it.
  JSON must be UTF-8 (RFC 8259): a UTF-16 body has NUL bytes and is refused.
* multipart forms: the text fields' values and every part's name and file name, as a streaming
  parser (python-multipart, as Starlette uses) sees them; a file's content is not text and is
  not scanned. Forms must be in an ASCII-compatible charset (:data:`MULTIPART_CHARSETS`): in
  UTF-7, say, ``+AAA-`` decodes to NUL.

Only when a request is refused is the input parsed, to name the field:
``422 {"message": "KEY_INVALID", "field": "message.payload"}`` (the dotted path, as FastAPI's
validation errors name fields), or 400 ``KEY_INVALID`` when no field can be named (the
character is in a name, or the body is not valid JSON).
"""

from __future__ import annotations

import codecs
import json
import re
from typing import Any
from urllib.parse import parse_qsl

from python_multipart.exceptions import FormParserError
from python_multipart.multipart import MultipartParser, parse_options_header

from pao.core.errors import AppError, BadRequest, Unprocessable

# Decoded text (a path, a parsed value).
URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
BODY_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Raw bytes: the control bytes (deleted by bytes.translate, a C loop) ...
URL_CONTROL_BYTES = bytes(range(0x20)) + b"\x7f"
BODY_CONTROL_BYTES = bytes(c for c in range(0x20) if c not in b"\t\n\r") + b"\x7f"
# ... and the escapes of them. Each pattern starts with a literal, so that the regular
# expression engine skips to the next "%" or backslash at C speed: one pattern for bytes and
# escapes together, an alternation, is tried at every byte (≈ 15 ns a byte: 80 µs for a
# 2,000-character Thai chat message, against 6 µs for the two passes).
QUERY_ESCAPE = re.compile(rb"%(?:[01][0-9A-Fa-f]|7[Ff])")
FORM_ESCAPE = re.compile(rb"%(?:0[0-8BbCcEeFf]|1[0-9A-Fa-f]|7[Ff])")
# An escape that starts an odd run of backslashes (the lookbehind: the run starts here; the
# possessive pairs: no backtracking, so a long run costs one pass), then u00XX for a control
# other than TAB, LF and CR, or u007f, \b or \f.
JSON_ESCAPE = re.compile(rb"\\(?<!\\\\)(?:\\\\)*+(?:u00(?:0[0-8BbCcEeFf]|1[0-9A-Fa-f]|7[Ff])|[bf])")
TEXT_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# Charsets in which a control character is one byte and no other byte sequence decodes to one
# (codecs' canonical names). Browsers send UTF-8 and no charset at all.
MULTIPART_CHARSETS = frozenset(
    {"utf-8", "ascii", "iso8859-1", "cp1252", "tis-620", "cp874", "iso8859-11"}
)


# A multipart body whose framing is broken (what Starlette's parser answers it, too).
MALFORMED = BadRequest("BODY_INVALID")


def refusal(field: str | None) -> AppError:
    """422 naming the field, or 400 when it cannot be named."""
    if field is None:
        return BadRequest("KEY_INVALID")
    return Unprocessable("KEY_INVALID", field=field)


def pairs_refusal(text: str, control: re.Pattern[str]) -> AppError:
    """The refusal of a query string or urlencoded body (decoded as Starlette decodes it)."""
    for name, value in parse_qsl(text, keep_blank_values=True):
        if control.search(name):
            break
        if control.search(value):
            return refusal(name)
    return refusal(None)


def json_refusal(body: bytes) -> AppError:
    """The refusal of a JSON body the scan caught: the first string (key or value) holding a
    control character, by its dotted path."""
    try:
        document = json.loads(body)
    except ValueError:
        return refusal(None)
    return refusal(_find(document, ""))


def _find(node: Any, at: str) -> str | None:
    if isinstance(node, str):
        return at if BODY_CONTROL.search(node) else None
    if isinstance(node, dict):
        for key, value in node.items():
            path = f"{at}.{key}" if at else key
            if BODY_CONTROL.search(key):
                return path
            found = _find(value, path)
            if found is not None:
                return found
    if isinstance(node, list):
        for index, item in enumerate(node):
            found = _find(item, f"{at}.{index}" if at else str(index))
            if found is not None:
                return found
    return None


def has_control_bytes(data: bytes, controls: bytes) -> bool:
    return len(data.translate(None, controls)) != len(data)


def query_has_control(query: bytes) -> bool:
    return has_control_bytes(query, URL_CONTROL_BYTES) or QUERY_ESCAPE.search(query) is not None


def body_refusal(body: bytes, content_type: bytes) -> AppError | None:
    """Scan a whole (bounded) body that is not multipart; ``None`` when it is clean."""
    form = content_type.startswith(b"application/x-www-form-urlencoded")
    escapes = FORM_ESCAPE if form else JSON_ESCAPE
    if not has_control_bytes(body, BODY_CONTROL_BYTES) and escapes.search(body) is None:
        return None
    return pairs_refusal(body.decode("latin-1"), BODY_CONTROL) if form else json_refusal(body)


PathPattern = tuple[frozenset[str], re.Pattern[str]]


def path_refusal(path: str, method: str, patterns: list[PathPattern]) -> AppError:
    """Name the path parameter that holds the control character, from the patterns of the
    routes (their methods, then any: two routes may share a path with other parameter names)."""
    for same_method in (True, False):
        for methods, pattern in patterns:
            if same_method and method not in methods:
                continue
            match = pattern.match(path)
            if match is None:
                continue
            for name, value in match.groupdict().items():
                if value is not None and URL_CONTROL.search(value):
                    return refusal(name)
    return refusal(None)


class _Found(Exception):
    """Stops the parser at the first control character."""


class MultipartTextScanner:
    """Follows a multipart body chunk by chunk as it is received, catching a control character
    in a text field's value or in a part's name or file name.

    It parses with python-multipart, as Starlette does, and decodes names with the same
    charset, so it sees the parts the app will see. A body that is not multipart as its
    header says (no boundary, broken framing) is refused ``BODY_INVALID`` at the first bytes
    that show it: Starlette's parser would fail on the same bytes, but only after the server
    had read the rest of the body for nothing (issue 33 §3: 1 GiB read in 1.1 s).
    """

    def __init__(self, content_type: bytes) -> None:
        self.refusal: AppError | None = None
        self._parser: MultipartParser | None = None
        self._field = b""
        self._value = b""
        self._disposition = b""
        self._name = ""
        self._text = False
        _, options = parse_options_header(content_type)
        charset = options.get(b"charset", b"utf-8").decode("latin-1")
        try:
            self._charset = codecs.lookup(charset).name
        except LookupError:
            self._charset = "iso8859-1"  # what Starlette falls back to
        if self._charset not in MULTIPART_CHARSETS:
            self.refusal = refusal(None)
            return
        boundary = options.get(b"boundary")
        if not boundary:
            self.refusal = MALFORMED
            return
        self._parser = MultipartParser(
            boundary,
            {
                "on_part_begin": self._part_begin,
                "on_header_field": self._header_field,
                "on_header_value": self._header_value,
                "on_header_end": self._header_end,
                "on_headers_finished": self._headers_finished,
                "on_part_data": self._part_data,
            },
        )

    def feed(self, chunk: bytes, *, last: bool) -> AppError | None:
        """Scan the next chunk; the refusal once a control character was found."""
        parser = self._parser
        if parser is None or self.refusal is not None:
            return self.refusal
        try:
            parser.write(chunk)
            if last:
                parser.finalize()
        except _Found:
            pass
        except FormParserError:
            self._parser = None
            self.refusal = MALFORMED
        return self.refusal

    def _decode(self, raw: bytes) -> str:
        try:
            return raw.decode(self._charset)
        except UnicodeDecodeError:
            return raw.decode("latin-1")  # as Starlette decodes it

    def _refuse(self, field: str | None) -> None:
        self.refusal = refusal(field)
        raise _Found

    def _part_begin(self) -> None:
        self._disposition = b""
        self._text = False

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._field += data[start:end]

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self._value += data[start:end]

    def _header_end(self) -> None:
        if self._field.lower() == b"content-disposition":
            self._disposition = self._value
        self._field = b""
        self._value = b""

    def _headers_finished(self) -> None:
        _, options = parse_options_header(self._disposition)
        raw_name = options.get(b"name", b"")
        if TEXT_CONTROL.search(raw_name):
            self._refuse(None)
        self._name = self._decode(raw_name)
        filename = options.get(b"filename")
        if filename is not None and TEXT_CONTROL.search(filename):
            self._refuse(self._name)
        self._text = filename is None

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if self._text and TEXT_CONTROL.search(data, start, end):
            self._refuse(self._name)
