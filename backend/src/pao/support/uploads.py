"""Chat media checks: the content decides the type (magic bytes), never the client's claim.

Images: png, jpeg, gif up to 10 MB; videos: mp4 and QuickTime up to 20 MB. A file name
without an extension, or with one outside the list, is refused like unknown content. The type
is judged on the file's first bytes (:data:`SNIFF_BYTES`); the size while the file is copied to
the store, which stops at the limit (:meth:`pao.kit.storage.FileStore.put_stream`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pao.support.exceptions import FileNotSupported, FileTooLarge

MB = 1024 * 1024
MediaKind = Literal["image", "video"]
MAX_BYTES: dict[MediaKind, int] = {"image": 10 * MB, "video": 20 * MB}
# Enough of a file's head for :func:`sniff`.
SNIFF_BYTES = 16
EXTENSIONS: dict[MediaKind, frozenset[str]] = {
    "image": frozenset({"png", "jpg", "jpeg", "gif"}),
    "video": frozenset({"mp4", "mov", "qt"}),
}
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
    if len(data) >= 12 and data[4:8] == b"ftyp":
        if data[8:12] in _QUICKTIME_BRANDS:
            return Detected("video", "video/quicktime", "mov")
        return Detected("video", "video/mp4", "mp4")
    if len(data) >= 8 and data[4:8] in _QUICKTIME_ATOMS:
        return Detected("video", "video/quicktime", "mov")
    return None


def extension_of(file_name: str | None) -> str | None:
    name = (file_name or "").rsplit("/", 1)[-1]
    if "." not in name.strip("."):
        return None
    return name.rsplit(".", 1)[-1].lower()


def too_large(kind: MediaKind) -> FileTooLarge:
    return FileTooLarge(maxMb=MAX_BYTES[kind] // MB)


def check_upload(*, kind: MediaKind, file_name: str | None, head: bytes) -> Detected:
    """Refuse what the chat does not take, by the name's extension and the file's first
    bytes; the returned type comes from the content."""
    extension = extension_of(file_name)
    if extension is None or extension not in EXTENSIONS[kind]:
        raise FileNotSupported()
    detected = sniff(head)
    if detected is None or detected.kind != kind:
        raise FileNotSupported()
    return detected


def safe_file_name(file_name: str | None, detected: Detected) -> str:
    """The shown name: the client's base name, trimmed, or a neutral one."""
    name = (file_name or "").replace("\\", "/").rsplit("/", 1)[-1].strip()
    name = "".join(ch for ch in name if ch.isprintable())[:255]
    return name or f"file.{detected.extension}"
