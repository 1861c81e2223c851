"""A slip upload's own work without the app (bench only, never in production), for the bare
handler of ``POST /bench/bare-script/slip`` (``bench.bare_script``): the image out of the
multipart body, the image decoded and its mini QR read, the image stored.

The decoding calls the libraries Pao's decoder (``pao.payments.slips.decoder``) calls, the same
way, without importing it: the file type by its first bytes, Pillow opens it, checks its format
and size, loads it and converts it to greyscale; zxing-cpp reads QR and Micro QR codes
(``try_rotate``) in the lower half first, then the whole image, then an upscaled copy; the
first code that parses as a slip mini QR (TLV, CRC-16/CCITT-FALSE) gives the sending bank and
the reference. The CRC is ``binascii.crc_hqx`` (the same CRC, in C). The multipart body is cut
at its boundary (the least a server can do: no spooled file, no form object).
"""

from __future__ import annotations

import binascii
import io
import re

import zxingcpp
from PIL import Image, UnidentifiedImageError

MAX_BYTES = 5 * 1024 * 1024
MAX_PIXELS = 40_000_000
_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")
_FORMATS = zxingcpp.barcode_formats_from_str("QRCode,MicroQRCode")
_SENDING_BANK = re.compile(r"[0-9]{3}")
_REFERENCE = re.compile(r"[0-9A-Za-z]{6,40}")


def file_part(body: bytes, content_type: bytes) -> bytes | None:
    """The content of the form's ``file`` part, or None."""
    _, _, rest = content_type.partition(b"boundary=")
    boundary = rest.split(b";", 1)[0].strip().strip(b'"')
    if not boundary:
        return None
    for part in body.split(b"--" + boundary):
        head, found, content = part.partition(b"\r\n\r\n")
        if found and b'name="file"' in head:
            return content[:-2] if content.endswith(b"\r\n") else content
    return None


def _tlv(payload: str) -> dict[str, str] | None:
    fields: dict[str, str] = {}
    index = 0
    while index < len(payload):
        tag, size = payload[index : index + 2], payload[index + 2 : index + 4]
        if not (tag.isdigit() and size.isdigit()) or len(tag) + len(size) != 4:
            return None
        end = index + 4 + int(size)
        if end > len(payload) or tag in fields:
            return None
        fields[tag] = payload[index + 4 : end]
        index = end
    return fields


def slip_qr(payload: str) -> tuple[str, str] | None:
    """(sending bank, reference) of a Thai slip mini QR whose CRC holds, else None."""
    payload = payload.strip()
    fields = _tlv(payload)
    if not fields or list(fields)[-1] != "91":
        return None
    crc = fields["91"]
    body = payload[: len(payload) - len(crc) - 4]
    try:
        if binascii.crc_hqx((body + "9104").encode(), 0xFFFF) != int(crc, 16):
            return None
    except ValueError:
        return None
    inner = _tlv(fields.get("00", "")) if fields.get("51") == "TH" else None
    if not inner or inner.get("00") != "000001":
        return None
    bank, reference = inner.get("01", ""), inner.get("02", "")
    if not _SENDING_BANK.fullmatch(bank) or not _REFERENCE.fullmatch(reference):
        return None
    return bank, reference


def _first(image: Image.Image) -> tuple[str, str] | None | bool:
    """The first slip QR in ``image``; False when no code at all."""
    results = zxingcpp.read_barcodes(image, formats=_FORMATS, try_rotate=True)
    for result in results:
        if found := slip_qr(result.text):
            return found
    return None if results else False


def decode(data: bytes) -> tuple[str, str] | None:
    """(sending bank, reference) read from a slip image; None when it is no slip. CPU-bound:
    run it in a worker thread, as the app does."""
    if not data.startswith(_MAGIC) or len(data) > MAX_BYTES:
        return None
    try:
        with Image.open(io.BytesIO(data)) as probe:
            width, height = probe.size
            if probe.format not in ("PNG", "JPEG") or width * height > MAX_PIXELS:
                return None
            probe.load()
            image = probe.convert("L")
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return None
    if found := _first(image.crop((0, height // 2, width, height))):
        return found
    found = _first(image)
    if found is False and max(image.size) < 1600:
        size = (image.width * 2, image.height * 2)
        found = _first(image.resize(size, Image.Resampling.LANCZOS))
    return found or None
