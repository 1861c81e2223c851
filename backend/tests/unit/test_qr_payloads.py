"""EMVCo payloads: the public vectors (build and parse), CRC, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pao.payments.qr.emv import (
    PayloadError,
    check_crc,
    crc_hex,
    decode,
    encode,
    with_crc,
)
from pao.payments.qr.promptpay import (
    LaoQr,
    PromptPayQr,
    ProxyKind,
    build_laoqr,
    build_promptpay,
    parse_laoqr,
    parse_promptpay,
)
from pao.payments.truemoney.link import InvalidGiftLink, voucher_hash

PROMPTPAY_VECTORS = [
    (
        PromptPayQr(ProxyKind.MOBILE, "0801234567"),
        "00020101021129370016A000000677010111011300668012345675802TH530376463046197",
    ),
    (
        PromptPayQr(ProxyKind.NATIONAL_ID, "1111111111111"),
        "00020101021129370016A000000677010111021311111111111115802TH530376463047B5A",
    ),
    (
        PromptPayQr(ProxyKind.MOBILE, "0812223333", 30_00),
        "00020101021229370016A0000006770101110113006681222333353037645802TH540530.0063043CAD",
    ),
]
LAO_VECTOR = (
    "00020101021138580016A00526628466257701080000041802030010315I90BYP17BC295VZ"
    "53034185802LA630491B3"
)
SLIP_VECTOR = "004000060000010103002021900021231231212000115102TH91049C30"


def test_crc_check_value() -> None:
    assert crc_hex("123456789") == "29B1"


@pytest.mark.parametrize(("qr", "payload"), PROMPTPAY_VECTORS)
def test_promptpay_vectors_parse(qr: PromptPayQr, payload: str) -> None:
    assert parse_promptpay(payload) == qr


@pytest.mark.parametrize(("qr", "payload"), PROMPTPAY_VECTORS)
def test_promptpay_vectors_build(qr: PromptPayQr, payload: str) -> None:
    built = build_promptpay(qr)
    # Tag order varies between generators: same fields, a valid CRC, and the CRC code
    # reproduces the vector exactly when the vector's own field order is used.
    assert dict(check_crc(built)) == dict(check_crc(payload))
    assert with_crc(encode(check_crc(payload))) == payload


def test_lao_vector_parse_and_build() -> None:
    qr = parse_laoqr(LAO_VECTOR)
    assert qr == LaoQr(bank_id="00000418", receiver_id="I90BYP17BC295VZ", amount=None)
    assert build_laoqr(qr) == LAO_VECTOR


def test_slip_vector_crc() -> None:
    # The slip mini QR closes with tag 91 (not 63) over everything up to "9104".
    assert crc_hex(SLIP_VECTOR[:-4]) == SLIP_VECTOR[-4:]
    assert decode(SLIP_VECTOR)[0][1].startswith("0006000001")


def test_dynamic_lao_qr_has_whole_kip() -> None:
    payload = build_laoqr(LaoQr("27710418", "ABC123", 50_000_00))
    fields = dict(check_crc(payload))
    assert fields["01"] == "12"
    assert fields["54"] == "50000"
    assert fields["53"] == "418"
    with pytest.raises(PayloadError):
        build_laoqr(LaoQr("27710418", "ABC123", 50_000_50))


@pytest.mark.parametrize(
    "bad",
    [
        PROMPTPAY_VECTORS[0][1][:-1] + "8",  # wrong CRC
        PROMPTPAY_VECTORS[0][1][:-8],  # no CRC
        "0002010102112937",  # truncated
        LAO_VECTOR,  # a Lao QR is not PromptPay
    ],
)
def test_promptpay_rejects(bad: str) -> None:
    with pytest.raises(PayloadError):
        parse_promptpay(bad)


mobiles = st.from_regex(r"0[0-9]{9}", fullmatch=True)
ids13 = st.from_regex(r"[0-9]{13}", fullmatch=True)
ids15 = st.from_regex(r"[0-9]{15}", fullmatch=True)
amounts = st.none() | st.integers(min_value=1, max_value=10**12)
references = st.none() | st.from_regex(r"[0-9A-Za-z]{1,25}", fullmatch=True)
promptpays = st.one_of(
    st.builds(PromptPayQr, st.just(ProxyKind.MOBILE), mobiles, amounts, references),
    st.builds(PromptPayQr, st.just(ProxyKind.NATIONAL_ID), ids13, amounts, references),
    st.builds(PromptPayQr, st.just(ProxyKind.EWALLET), ids15, amounts, references),
)
laos = st.builds(
    LaoQr,
    st.from_regex(r"[0-9]{8}", fullmatch=True),
    st.from_regex(r"[0-9A-Za-z]{1,40}", fullmatch=True),
    st.none() | st.integers(min_value=1, max_value=10**10).map(lambda kip: kip * 100),
)


@given(promptpays)
def test_promptpay_round_trip(qr: PromptPayQr) -> None:
    assert parse_promptpay(build_promptpay(qr)) == qr


@given(laos)
def test_laoqr_round_trip(qr: LaoQr) -> None:
    assert parse_laoqr(build_laoqr(qr)) == qr


@given(promptpays, st.data())
def test_crc_detects_any_single_character_change(qr: PromptPayQr, data: st.DataObject) -> None:
    payload = build_promptpay(qr)
    index = data.draw(st.integers(min_value=0, max_value=len(payload) - 1))
    replacement = data.draw(
        st.sampled_from("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ.").filter(
            lambda c: c != payload[index]
        )
    )
    corrupted = payload[:index] + replacement + payload[index + 1 :]
    with pytest.raises(PayloadError):
        parse_promptpay(corrupted)


def test_gift_link_accepted() -> None:
    assert voucher_hash(" https://gift.truemoney.com/campaign/?v=abcDEF1234567 ") == (
        "abcDEF1234567"
    )
    assert voucher_hash("https://gift.truemoney.com/campaign?v=0123456789") == "0123456789"


@pytest.mark.parametrize(
    "link",
    [
        "",
        "http://gift.truemoney.com/campaign/?v=abcDEF1234567",
        "https://gift.truemoney.com.evil.com/campaign/?v=abcDEF1234567",
        "https://evil.com/?u=https://gift.truemoney.com/campaign/?v=abcDEF1234567",
        "https://user@gift.truemoney.com/campaign/?v=abcDEF1234567",
        "https://gift.truemoney.com:444/campaign/?v=abcDEF1234567",
        "https://gift.truemoney.com/other/?v=abcDEF1234567",
        "https://gift.truemoney.com/campaign/?v=abcDEF1234567&v=other12345",
        "https://gift.truemoney.com/campaign/?v=abcDEF1234567&x=1",
        "https://gift.truemoney.com/campaign/?v=abc",
        "https://gift.truemoney.com/campaign/?v=abc$DEF1234567",
        "https://gift.truemoney.com/campaign/?v=abcDEF1234567#x",
        "https://gift.truemoney.com/campaign/?v=abcDEF 1234567",
    ],
)
def test_gift_link_rejected(link: str) -> None:
    with pytest.raises(InvalidGiftLink):
        voucher_hash(link)
