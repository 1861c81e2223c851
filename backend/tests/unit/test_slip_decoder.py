"""The slip reader: file sniffing, the mini QR's TLV and CRC, and real images."""

from __future__ import annotations

import pytest
from PIL import Image

from pao.payments.slips.decoder import (
    InvalidSlipFile,
    SlipReadError,
    crc16,
    decode_slip,
    open_slip_image,
    parse_slip_qr,
    parse_tlv,
    read_slip_qr,
    sniff_extension,
)
from tests.slip_images import blank_png, qr_image, slip_payload, slip_png, to_bytes

VECTOR = "004000060000010103002021900021231231212000115102TH91049C30"


def test_crc_check_value() -> None:
    assert crc16("123456789") == 0x29B1


@pytest.mark.parametrize(
    "payload",
    [
        "00020101021129370016A000000677010111011300668012345675802TH530376463046197",
        "00020101021129370016A000000677010111021311111111111115802TH530376463047B5A",
        "00020101021229370016A0000006770101110113006681222333353037645802TH540530.0063043CAD",
        "00020101021138580016A00526628466257701080000041802030010315I90BYP17BC295VZ"
        "53034185802LA630491B3",
    ],
)
def test_crc_of_public_emv_vectors(payload: str) -> None:
    assert f"{crc16(payload[:-4]):04X}" == payload[-4:]


def test_public_slip_vector() -> None:
    qr = parse_slip_qr(VECTOR)
    assert (qr.sending_bank, qr.reference) == ("002", "0002123123121200011")


def test_tlv_fields_in_order() -> None:
    assert [tag for tag, _ in parse_tlv(VECTOR)] == ["00", "51", "91"]


def test_crc_with_dropped_leading_zeros_is_padded() -> None:
    # Find a reference whose CRC starts with a zero, then drop it as some bank apps do.
    for n in range(2000):
        payload = slip_payload("004", f"2026112100000{n:06d}")
        crc = payload[-4:]
        if crc.startswith("0"):
            short = crc.lstrip("0")
            dropped = payload[:-8] + f"91{len(short):02d}{short}"
            assert parse_slip_qr(dropped).reference == f"2026112100000{n:06d}"
            return
    pytest.fail("no CRC with a leading zero found")


@pytest.mark.parametrize(
    "payload",
    [
        VECTOR[:-4] + "9C31",  # wrong CRC
        VECTOR[:-1],  # truncated
        "not a qr payload at all",
        slip_payload("004", "ABC123").replace("5102TH", "5102LA"),  # not Thai (CRC redone below)
        "00020101021129370016A000000677010111011300668012345675802TH530376463046197",  # PromptPay
        slip_payload("04", "2026112100000001"),  # 2-digit bank code
        slip_payload("004", "bad ref!"),
    ],
)
def test_unstable_reference(payload: str) -> None:
    with pytest.raises(SlipReadError) as caught:
        parse_slip_qr(payload)
    assert caught.value.reason == "UNSTABLE_REFNO_ON_SLIP"


def test_sniffs_by_content_not_name() -> None:
    png = slip_png(VECTOR)
    assert sniff_extension(png) == "png"
    assert sniff_extension(to_bytes(Image.open(__import__("io").BytesIO(png)), "JPEG")) == "jpg"
    assert sniff_extension(b"GIF89a....") is None
    assert sniff_extension(b"%PDF-1.4") is None


@pytest.mark.parametrize(
    "data",
    [
        b"hello, I am a text file pretending to be slip.png",
        b"\x89PNG\r\n\x1a\n" + b"\x00" * 50,  # PNG magic, garbage body
        slip_png(VECTOR)[:200],  # truncated PNG
        b"\xff\xd8\xff\xe0" + b"junk" * 20,  # JPEG magic, garbage body
        b"",
    ],
)
def test_invalid_files(data: bytes) -> None:
    with pytest.raises(InvalidSlipFile):
        open_slip_image(data)


def test_too_large_file() -> None:
    with pytest.raises(InvalidSlipFile):
        open_slip_image(b"\x89PNG\r\n\x1a\n" + b"\x00" * (5 * 1024 * 1024))


def test_generated_slip_decodes() -> None:
    _, qr = decode_slip(slip_png(VECTOR))
    assert qr.reference == "0002123123121200011"


@pytest.mark.parametrize("angle", [90, 180, 270, 12, -25])
def test_rotated_slip_decodes(angle: int) -> None:
    payload = slip_payload("014", "20261121123456789012")
    image = qr_image(payload, size=(480, 700)).rotate(angle, expand=True, fillcolor="white")
    assert read_slip_qr(image).reference == "20261121123456789012"


@pytest.mark.parametrize("factor", [0.5, 2.5])
def test_scaled_slip_decodes(factor: float) -> None:
    payload = slip_payload("004", "20261121000000000042")
    image = qr_image(payload, size=(480, 700))
    image = image.resize((int(image.width * factor), int(image.height * factor)))
    assert read_slip_qr(image).sending_bank == "004"


@pytest.mark.parametrize("top", [20, 290, 400, 560])
def test_slip_qr_anywhere_on_the_slip_decodes(top: int) -> None:
    """The lower half is read first; a code above it, or across the middle, still reads."""
    payload = slip_payload("004", "20261121000000000044")
    code = qr_image(payload)
    canvas = Image.new("RGB", (480, 700), "white")
    canvas.paste(code, ((480 - code.width) // 2, min(top, 700 - code.height)))
    assert decode_slip(to_bytes(canvas))[1].reference == "20261121000000000044"


def test_slip_qr_above_an_ad_qr_decodes() -> None:
    """An ad's QR in the lower half does not hide the slip's QR above it."""
    canvas = Image.new("RGB", (480, 900), "white")
    canvas.paste(qr_image(slip_payload("004", "20261121000000000045")), (20, 20))
    canvas.paste(qr_image("https://example.com/promo"), (200, 600))
    assert decode_slip(to_bytes(canvas))[1].reference == "20261121000000000045"


def test_jpeg_slip_decodes() -> None:
    payload = slip_payload("004", "20261121000000000043")
    data = to_bytes(qr_image(payload, size=(480, 700)), "JPEG")
    slip, qr = decode_slip(data)
    assert slip.extension == "jpg"
    assert qr.reference == "20261121000000000043"


def test_blank_image_is_unreadable() -> None:
    with pytest.raises(SlipReadError) as caught:
        decode_slip(blank_png())
    assert caught.value.reason == "CANNOT_READ_CROPPED_IMAGE"


def test_other_qr_is_unstable() -> None:
    with pytest.raises(SlipReadError) as caught:
        decode_slip(slip_png("https://example.com/promo"))
    assert caught.value.reason == "UNSTABLE_REFNO_ON_SLIP"


def test_noise_is_unreadable() -> None:
    import random

    rng = random.Random(7)
    noise = Image.frombytes("L", (200, 200), bytes(rng.randrange(256) for _ in range(40000)))
    with pytest.raises(SlipReadError) as caught:
        decode_slip(to_bytes(noise.convert("RGB")))
    assert caught.value.reason == "CANNOT_READ_CROPPED_IMAGE"


def test_huge_image_is_not_processed() -> None:
    huge = to_bytes(Image.new("1", (7000, 7000), 1))
    assert len(huge) < 5 * 1024 * 1024
    with pytest.raises(SlipReadError) as caught:
        decode_slip(huge)
    assert caught.value.reason == "IMG_SIZE_UNABLE_TO_PROCESS"
