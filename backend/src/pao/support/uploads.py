"""Chat media checks: the content decides the type (magic bytes), never the client's claim.

Images: png, jpeg, gif up to 10 MB; videos: mp4 and QuickTime up to 20 MB. A file name
without an extension, or with one outside the list, is refused like unknown content. The type
is judged on the file's first bytes by :func:`pao.kit.media.sniff` (shared with the operator's
images); the size while the file is copied to the store, which stops at the limit
(:meth:`pao.kit.storage.FileStore.put_stream`).
"""

from __future__ import annotations

from pao.kit.media import SNIFF_BYTES, Detected, MediaKind, extension_of, sniff
from pao.support.exceptions import FileNotSupported, FileTooLarge

__all__ = [
    "EXTENSIONS",
    "MAX_BYTES",
    "SNIFF_BYTES",
    "Detected",
    "MediaKind",
    "check_upload",
    "safe_file_name",
    "too_large",
]

MB = 1024 * 1024
MAX_BYTES: dict[MediaKind, int] = {"image": 10 * MB, "video": 20 * MB}
EXTENSIONS: dict[MediaKind, frozenset[str]] = {
    "image": frozenset({"png", "jpg", "jpeg", "gif"}),
    "video": frozenset({"mp4", "mov", "qt"}),
}


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
