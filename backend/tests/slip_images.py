"""Slip images for tests: real QR codes (segno) drawn into PNG/JPEG files (Pillow)."""

from __future__ import annotations

import io

import segno
from PIL import Image

from pao.payments.slips.decoder import crc16


def tlv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def slip_payload(sending_bank: str, reference: str, *, crc: str | None = None) -> str:
    inner = tlv("00", "000001") + tlv("01", sending_bank) + tlv("02", reference)
    head = tlv("00", inner) + tlv("51", "TH") + "9104"
    return head + (crc if crc is not None else f"{crc16(head):04X}")


def qr_image(payload: str, *, scale: int = 5, size: tuple[int, int] | None = None) -> Image.Image:
    buffer = io.BytesIO()
    segno.make(payload, error="m", micro=False).save(buffer, kind="png", scale=scale, border=4)
    buffer.seek(0)
    code = Image.open(buffer).convert("RGB")
    if size is None:
        return code
    canvas = Image.new("RGB", size, "white")
    canvas.paste(code, ((size[0] - code.width) // 2, size[1] - code.height - 20))
    return canvas


def to_bytes(image: Image.Image, fmt: str = "PNG") -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format=fmt)
    return buffer.getvalue()


def slip_png(payload: str) -> bytes:
    return to_bytes(qr_image(payload, size=(480, 700)))


def blank_png() -> bytes:
    return to_bytes(Image.new("RGB", (300, 400), "white"))
