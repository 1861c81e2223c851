"""TOTP (RFC 6238): the RFC's SHA-1 test vectors, the ±1 step window, replay refusal, secrets
and the enrolment an authenticator scans."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, unquote, urlparse

import pytest

from pao.backoffice.staff import totp

# RFC 6238 Appendix B: the SHA-1 seed is the ASCII string "12345678901234567890".
RFC_SECRET = base64.b32encode(b"12345678901234567890").decode()


@pytest.mark.parametrize(
    ("unix_time", "code"),
    [
        (59, "94287082"),
        (1111111109, "07081804"),
        (1111111111, "14050471"),
        (1234567890, "89005924"),
        (2000000000, "69279037"),
        (20000000000, "65353130"),
    ],
)
def test_rfc6238_sha1_vectors(unix_time: int, code: str) -> None:
    assert totp.code_at(RFC_SECRET, unix_time, digits=8) == code
    assert totp.code_at(RFC_SECRET, datetime.fromtimestamp(unix_time, UTC), digits=8) == code


AT = datetime(2026, 11, 25, 9, 0, 15, tzinfo=UTC)
SECRET = totp.new_secret()


def _code(delta_steps: int) -> str:
    return totp.code_at(SECRET, AT + timedelta(seconds=30 * delta_steps))


def test_a_code_is_accepted_one_step_either_side_and_not_further() -> None:
    now = totp.step_at(AT)
    for delta in (-1, 0, 1):
        assert totp.matching_step(SECRET, _code(delta), at=AT) == now + delta
    for delta in (-3, -2, 2, 3):
        assert totp.matching_step(SECRET, _code(delta), at=AT) is None


def test_a_code_is_accepted_only_after_the_last_step_used() -> None:
    now = totp.step_at(AT)
    assert totp.matching_step(SECRET, _code(0), at=AT, after_step=now - 1) == now
    # Replayed within its window: the step it matches was used already.
    assert totp.matching_step(SECRET, _code(0), at=AT, after_step=now) is None
    assert totp.matching_step(SECRET, _code(-1), at=AT, after_step=now) is None
    # The next step's code still works (drift ahead).
    assert totp.matching_step(SECRET, _code(1), at=AT, after_step=now) == now + 1


@pytest.mark.parametrize("code", ["", "12345", "1234567", "abcdef", "12 34 56"])
def test_malformed_codes_never_match(code: str) -> None:
    assert totp.matching_step(SECRET, code, at=AT) is None


def test_surrounding_spaces_are_forgiven() -> None:
    assert totp.matching_step(SECRET, f" {_code(0)} ", at=AT) == totp.step_at(AT)


def test_secrets() -> None:
    assert len(totp.new_secret()) == 32
    assert totp.new_secret() != totp.new_secret()
    assert totp.is_valid_secret(RFC_SECRET)
    assert not totp.is_valid_secret("NOT-BASE32!!")
    assert not totp.is_valid_secret("ABCDEFGH")  # 40 bits: too short


def test_enrolment_uri_and_qr() -> None:
    enrolment = totp.enrolment(secret=SECRET, account="ann")
    uri = urlparse(enrolment.uri)
    assert (uri.scheme, uri.netloc, unquote(uri.path)) == ("otpauth", "totp", "/Pao:ann")
    assert parse_qs(uri.query)["secret"] == [SECRET]
    assert parse_qs(uri.query)["issuer"] == ["Pao"]
    assert enrolment.qr_svg_data_uri.startswith("data:image/svg+xml")
