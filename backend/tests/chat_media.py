"""Tiny media files of every kind the chat accepts (and some it refuses), for chat tests."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

from PIL import Image

# A real 2×2 PNG (decodable by browsers), so browser tests can show it.
_RAW = b"".join(b"\x00" + b"\xff\x00\x00\x00\xff\x00" for _ in range(2))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


PNG = (
    b"\x89PNG\r\n\x1a\n"
    + _chunk(b"IHDR", struct.pack(">IIBBBBB", 2, 2, 8, 2, 0, 0, 0))
    + _chunk(b"IDAT", zlib.compress(_RAW))
    + _chunk(b"IEND", b"")
)


def _encoded(kind: str, **options: Any) -> bytes:
    """A real 2×2 image of ``kind``: images are decoded and encoded again when stored
    (pao.kit.images), so a file that only looks like one is refused."""
    out = io.BytesIO()
    Image.new("RGB", (2, 2), (200, 30, 30)).save(out, kind, **options)
    return out.getvalue()


JPEG = _encoded("JPEG")
GIF = _encoded("GIF")
# What a polyglot carries after its image: a zip (another program would open it as one).
ZIP_TAIL = b"PK\x03\x04" + b"\x14\x00" * 8 + b"payload.html<script>alert(1)</script>"


def declaring(width: int, height: int) -> bytes:
    """A PNG header declaring ``width`` × ``height`` pixels with almost no data: a
    decompression bomb's shape, refused before it is decoded."""
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + _chunk(b"IDAT", zlib.compress(b"\x00" * 64))
        + _chunk(b"IEND", b"")
    )


def pixels(data: bytes) -> tuple[str | None, tuple[int, int]]:
    """The format and size an image decodes to."""
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.format, image.size


MP4 = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + b"\x00" * 32
MOV = b"\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00qt  " + b"\x00" * 32
PDF = b"%PDF-1.7\n" + b"\x00" * 32
