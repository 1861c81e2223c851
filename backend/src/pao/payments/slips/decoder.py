"""Reading a slip image: file checks by content, the mini QR, its TLV and CRC.

Pure functions (no I/O) so that they are tested on the public vectors and generated images.
Every failure is a :class:`SlipReadError` carrying the spec's reason code:

* not a PNG/JPEG by its bytes, or Pillow cannot decode it → :class:`InvalidSlipFile`
  (the request is refused with ``SLIP_INVALID_FILE``; nothing is recorded);
* too many pixels to process → ``IMG_SIZE_UNABLE_TO_PROCESS``;
* no QR code found → ``CANNOT_READ_CROPPED_IMAGE``;
* a QR that is not a slip mini QR, or whose CRC is wrong → ``UNSTABLE_REFNO_ON_SLIP``.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import zxingcpp
from PIL import Image, UnidentifiedImageError

MAX_BYTES = 5 * 1024 * 1024
# Refuse to decode more pixels than a phone screenshot could need (and than Pillow's bomb
# guard would warn about).
MAX_PIXELS = 40_000_000
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
JPEG_MAGIC = b"\xff\xd8\xff"

_SENDING_BANK = re.compile(r"[0-9]{3}")
_REFERENCE = re.compile(r"[0-9A-Za-z]{6,40}")


class SlipReadError(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class InvalidSlipFile(SlipReadError):
    def __init__(self) -> None:
        super().__init__("SLIP_INVALID_FILE")


@dataclass(frozen=True)
class SlipImage:
    # In greyscale (mode "L"): what the QR reader reads. zxing-cpp reduces a colour image to
    # its luminance itself, from a copy of the pixels three times as large; Pillow's luma
    # conversion, done once here, is the same grey (ITU-R 601) at a fraction of the CPU.
    image: Image.Image
    extension: str  # "png" | "jpg"


@dataclass(frozen=True)
class SlipQr:
    sending_bank: str  # the 3-digit clearing code of the sending bank
    reference: str  # the bank's transaction reference
    payload: str


def sniff_extension(data: bytes) -> str | None:
    """The file type by its first bytes, never by a name."""
    if data.startswith(PNG_MAGIC):
        return "png"
    if data.startswith(JPEG_MAGIC):
        return "jpg"
    return None


def open_slip_image(data: bytes) -> SlipImage:
    """PNG or JPEG by content, fully decodable by Pillow, not absurdly large; in greyscale."""
    extension = sniff_extension(data)
    if extension is None or len(data) > MAX_BYTES:
        raise InvalidSlipFile()
    try:
        with Image.open(io.BytesIO(data)) as probe:
            if probe.format not in ("PNG", "JPEG"):
                raise InvalidSlipFile()
            width, height = probe.size
            if width * height > MAX_PIXELS:
                raise SlipReadError("IMG_SIZE_UNABLE_TO_PROCESS")
            probe.load()  # a truncated or corrupt file fails here, not later
            # Straight to grey, whatever the file's mode: no colour copy made first.
            image = probe.convert("L")
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise InvalidSlipFile() from None
    return SlipImage(image=image, extension=extension)


def crc16(data: str) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor."""
    crc = 0xFFFF
    for byte in data.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def parse_tlv(payload: str) -> list[tuple[str, str]]:
    """Two-digit tag, two-digit length, value; in order. Raises ValueError when malformed."""
    fields: list[tuple[str, str]] = []
    index = 0
    while index < len(payload):
        tag, size = payload[index : index + 2], payload[index + 2 : index + 4]
        if len(tag) != 2 or not tag.isdigit() or len(size) != 2 or not size.isdigit():
            raise ValueError(f"bad TLV header at {index}")
        end = index + 4 + int(size)
        if end > len(payload):
            raise ValueError(f"TLV field {tag} overruns the payload")
        fields.append((tag, payload[index + 4 : end]))
        index = end
    return fields


def parse_slip_qr(payload: str) -> SlipQr:
    """The sending bank and reference of a Thai slip mini QR, CRC checked.

    ``00`` = {``00`` ``000001``, ``01`` bank, ``02`` reference}, ``51`` ``TH``, ``91`` CRC over
    everything up to and including ``9104``. Some bank apps drop the CRC's leading zeros
    (``9103C30``): the value is left-padded and the CRC computed over the standard ``9104``
    prefix."""
    unstable = SlipReadError("UNSTABLE_REFNO_ON_SLIP")
    payload = payload.strip()
    try:
        fields = parse_tlv(payload)
        tags = [tag for tag, _ in fields]
        if not fields or tags[-1] != "91" or len(set(tags)) != len(tags):
            raise ValueError("the CRC must come last, tags once")
        crc_value = fields[-1][1]
        if not 1 <= len(crc_value) <= 4 or not all(
            c in "0123456789ABCDEFabcdef" for c in crc_value
        ):
            raise ValueError("bad CRC value")
        body = payload[: len(payload) - len(crc_value) - 4]
        if crc16(body + "9104") != int(crc_value, 16):
            raise ValueError("CRC mismatch")
        values = dict(fields)
        if values.get("51") != "TH" or "00" not in values:
            raise ValueError("not a Thai slip QR")
        inner = dict(parse_tlv(values["00"]))
    except ValueError:
        raise unstable from None
    if inner.get("00") != "000001":
        raise unstable
    sending_bank, reference = inner.get("01", ""), inner.get("02", "")
    if not _SENDING_BANK.fullmatch(sending_bank) or not _REFERENCE.fullmatch(reference):
        raise unstable
    return SlipQr(sending_bank=sending_bank, reference=reference, payload=payload)


def _first_slip_qr(results: list[zxingcpp.Barcode]) -> SlipQr | SlipReadError | None:
    """The first code that parses as a slip QR; else the last parse error (codes found, none a
    slip's), or None (no code)."""
    last_error: SlipReadError | None = None
    for result in results:
        try:
            return parse_slip_qr(result.text)
        except SlipReadError as exc:
            last_error = exc
    return last_error


def read_slip_qr(image: Image.Image) -> SlipQr:
    """Find the slip's mini QR in ``image`` (any rotation or scale zxing-cpp copes with;
    :func:`open_slip_image` gives it in greyscale, which reads fastest).

    Several codes may be printed (a bank's ad QR): the first that parses as a slip QR wins;
    if codes were found but none parses, the reference is unstable.

    Thai bank apps print the mini QR in the lower half of the slip, so that half is read
    first (half the pixels: half zxing-cpp's work). When no slip QR is found there (the code
    elsewhere, rotated, cut by the crop, only an ad's QR) the whole image is read as before,
    so a slip reads whenever it did; a slip QR found in the lower half is checked by its CRC
    like any other."""
    formats = zxingcpp.barcode_formats_from_str("QRCode,MicroQRCode")
    width, height = image.size
    lower = image.crop((0, height // 2, width, height))
    found = _first_slip_qr(zxingcpp.read_barcodes(lower, formats=formats, try_rotate=True))
    if isinstance(found, SlipQr):
        return found
    results = zxingcpp.read_barcodes(image, formats=formats, try_rotate=True)
    if not results:
        # Small or blurry codes: one more try on an upscaled grey copy.
        grey = image if image.mode == "L" else image.convert("L")
        if max(grey.size) < 1600:
            grey = grey.resize((grey.width * 2, grey.height * 2), Image.Resampling.LANCZOS)
        results = zxingcpp.read_barcodes(grey, formats=formats, try_rotate=True)
    found = _first_slip_qr(results)
    if found is None:
        raise SlipReadError("CANNOT_READ_CROPPED_IMAGE")
    if isinstance(found, SlipReadError):
        raise found
    return found


def decode_slip(data: bytes) -> tuple[SlipImage, SlipQr]:
    """Both steps; CPU-bound, run it in a worker thread."""
    slip_image = open_slip_image(data)
    return slip_image, read_slip_qr(slip_image.image)
