"""The operator's images (bonus banners, and any other operator content that shows a picture):
stored from a back-office upload, served to everyone at a public address.

A file is taken when its *content* is a png, jpeg, gif or webp image (magic bytes,
:func:`pao.kit.media.sniff`) — the client's name and type are not trusted — no larger than
:data:`MAX_BYTES` (reading stops there; nothing is stored then), and its declared size within
:data:`pao.kit.images.MAX_PIXELS`; what is stored under :data:`PREFIX` of the
:class:`pao.kit.storage.FileStore` is the image decoded and encoded again, so that nothing but
its pixels is kept (no trailing payload, no metadata). Its address is :data:`PUBLIC_PATH` + the
stored name; the route that serves it (:mod:`pao.site.images_router`) answers only names of that
shape, so it can never hand out another key of the store (a member's slip or chat file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import anyio

from pao.core.errors import BadRequest, NotFound
from pao.core.request_limits import PayloadTooLarge
from pao.kit.images import ImageUnreadable, reencode
from pao.kit.media import SNIFF_BYTES, sniff
from pao.kit.storage import FileStore, TooLarge, Upload, read_bounded

MB = 1024 * 1024
MAX_BYTES = 2 * MB
PREFIX = "images"
PUBLIC_PATH = "/api/images/"
CONTENT_TYPES = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "gif": "image/gif",
    "webp": "image/webp",
}
# What the store names a file (pao.kit.storage: 32 hex digits + the detected extension).
_NAME = re.compile(r"[0-9a-f]{32}\.(png|jpg|gif|webp)")


class ImageNotSupported(BadRequest):
    """Not a png, jpeg, gif or webp image by its content (whatever its name says)."""

    code = "IMAGE_NOT_SUPPORTED"


class ImageTooLarge(PayloadTooLarge):
    """Larger than :data:`MAX_BYTES`; ``maxMb`` says the limit (HTTP 413)."""

    code = "IMAGE_TOO_LARGE"

    def __init__(self) -> None:
        super().__init__(maxMb=MAX_BYTES // MB)


class ImageNotFound(NotFound):
    code = "IMAGE_NOT_FOUND"


@dataclass(frozen=True)
class StoredImage:
    url: str
    content_type: str
    size: int


async def store_image(store: FileStore, upload: Upload) -> StoredImage:
    """Check the upload's first bytes, read it (bounded), decode and encode it again
    (:func:`pao.kit.images.reencode`: only pixels are kept) and store that."""
    detected = sniff(await upload.read(SNIFF_BYTES))
    if detected is None or detected.kind != "image" or detected.extension not in CONTENT_TYPES:
        raise ImageNotSupported()
    await upload.seek(0)
    try:
        data = await read_bounded(upload, MAX_BYTES)
    except TooLarge:
        raise ImageTooLarge() from None
    try:
        image = await anyio.to_thread.run_sync(reencode, data, detected.extension)
    except ImageUnreadable:
        raise ImageNotSupported() from None
    key = await store.put(prefix=PREFIX, data=image.data, extension=detected.extension)
    name = key.removeprefix(f"{PREFIX}/")
    return StoredImage(
        url=PUBLIC_PATH + name, content_type=detected.content_type, size=len(image.data)
    )


async def read_image(store: FileStore, name: str) -> tuple[bytes, str]:
    """The bytes and content type of a stored image, by its public name."""
    match = _NAME.fullmatch(name)
    key = f"{PREFIX}/{name}"
    if match is None or not await store.exists(key):
        raise ImageNotFound()
    return await store.get(key), CONTENT_TYPES[match.group(1)]
