"""Tiny media files of every kind the chat accepts (and some it refuses), for chat tests."""

from __future__ import annotations

import struct
import zlib

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
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" + b"\x00" * 32 + b"\xff\xd9"
GIF = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
MP4 = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + b"\x00" * 32
MOV = b"\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00qt  " + b"\x00" * 32
PDF = b"%PDF-1.7\n" + b"\x00" * 32
