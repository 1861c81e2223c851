"""What a file is, judged by its content (magic bytes), never by its name or the client's claim.

One implementation for every upload: the chat's media (:mod:`pao.support.uploads`) and the
operator's images (:mod:`pao.site.images`). Each caller keeps its own list of accepted kinds,
extensions and sizes; this module only says what the first :data:`SNIFF_BYTES` bytes are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MediaKind = Literal["image", "video"]
# Enough of a file's head for :func:`sniff`.
SNIFF_BYTES = 16
# ISO base media brands that are QuickTime rather than MP4.
_QUICKTIME_BRANDS = {b"qt  "}
# Old QuickTime files may start with one of these atoms instead of ftyp.
_QUICKTIME_ATOMS = {b"moov", b"mdat", b"wide", b"free"}


@dataclass(frozen=True)
class Detected:
    kind: MediaKind
    content_type: str
    extension: str


def sniff(data: bytes) -> Detected | None:
    """The media type of ``data`` by its first bytes, or ``None``."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return Detected("image", "image/png", "png")
    if data.startswith(b"\xff\xd8\xff"):
        return Detected("image", "image/jpeg", "jpg")
    if data.startswith((b"GIF87a", b"GIF89a")):
        return Detected("image", "image/gif", "gif")
    if len(data) >= 12 and data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return Detected("image", "image/webp", "webp")
    if len(data) >= 12 and data[4:8] == b"ftyp":
        if data[8:12] in _QUICKTIME_BRANDS:
            return Detected("video", "video/quicktime", "mov")
        return Detected("video", "video/mp4", "mp4")
    if len(data) >= 8 and data[4:8] in _QUICKTIME_ATOMS:
        return Detected("video", "video/quicktime", "mov")
    return None


def extension_of(file_name: str | None) -> str | None:
    """The lower-cased extension of a client's file name, or ``None`` without one."""
    name = (file_name or "").rsplit("/", 1)[-1]
    if "." not in name.strip("."):
        return None
    return name.rsplit(".", 1)[-1].lower()
