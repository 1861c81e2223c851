"""Images are decoded and written again before they are kept: what is stored is only pixels.

An upload that starts like a png passes :func:`pao.kit.media.sniff`, but may carry anything
after its image data (a polyglot: a zip, a script, an HTML page another program reads) or
metadata (a phone photo's GPS position), and may declare a size that takes gigabytes to decode
(a "decompression bomb": 20000×20000 px in a few kilobytes). :func:`reencode` reads the header
first and refuses a declared size above :data:`MAX_PIXELS` (per frame) or :data:`MAX_TOTAL_PIXELS`
(all frames of an animation) before decoding anything, then decodes the image and encodes it
anew in its own format: trailing bytes and metadata are gone, a photo keeps its orientation.

Used for the operator's images (:mod:`pao.site.images`) and the chat's images
(:mod:`pao.support.service`). It is CPU work: callers run it in a worker thread.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from pao.core.errors import Unprocessable

# 16 megapixels a frame (4096 × 4096): more than any banner, chat photo or phone camera needs.
MAX_PIXELS = 4096 * 4096
# An animation's frames together (a 200-frame gif of 640 × 480 is 61 megapixels).
MAX_TOTAL_PIXELS = 64 * 1024 * 1024
# What each sniffed extension must decode as (Pillow's format names).
_FORMATS = {"png": "PNG", "jpg": "JPEG", "gif": "GIF", "webp": "WEBP"}


# What Pillow raises for bytes that are not a decodable image of the announced kind.
_UNREADABLE = (
    UnidentifiedImageError,
    OSError,
    ValueError,
    SyntaxError,
    EOFError,
)


class ImageDimensionsTooLarge(Unprocessable):
    """The image declares more pixels than :data:`MAX_PIXELS` (``maxPixels`` says the limit)."""

    code = "IMAGE_DIMENSIONS_TOO_LARGE"

    def __init__(self) -> None:
        super().__init__(maxPixels=MAX_PIXELS)


class ImageUnreadable(Exception):
    """The bytes do not decode as the image their first bytes announce; the caller answers
    with its own 'not supported' code."""


@dataclass(frozen=True)
class Reencoded:
    data: bytes
    width: int
    height: int


def reencode(data: bytes, extension: str) -> Reencoded:
    """``data`` decoded and encoded again as ``extension`` (png, jpg, gif, webp), or a refusal:
    :class:`ImageDimensionsTooLarge` before decoding, :class:`ImageUnreadable` for anything
    that does not decode as that format."""
    expected = _FORMATS.get(extension)
    if expected is None:
        raise ImageUnreadable(extension)
    try:
        with warnings.catch_warnings():
            # Our bound is below Pillow's own bomb warning; its warning would only add noise.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:  # reads the header only
                if image.format != expected:
                    raise ImageUnreadable(image.format)
                frames = getattr(image, "n_frames", 1)
                pixels = image.width * image.height
                if pixels > MAX_PIXELS or pixels * frames > MAX_TOTAL_PIXELS:
                    raise ImageDimensionsTooLarge()
                return Reencoded(_encode(image, expected, animated=frames > 1), *image.size)
    except Image.DecompressionBombError:
        # Pillow's own bound (twice its MAX_IMAGE_PIXELS) is far above ours: the same answer.
        raise ImageDimensionsTooLarge() from None
    except _UNREADABLE as exc:
        raise ImageUnreadable(str(exc)) from exc


def _encode(image: Image.Image, format_name: str, *, animated: bool) -> bytes:
    out = io.BytesIO()
    if animated:
        # Every frame, with its timing; the first frame's palette and loop count as they were.
        image.save(
            out,
            format_name,
            save_all=True,
            loop=image.info.get("loop", 0),
            duration=image.info.get("duration", 100),
        )
        return out.getvalue()
    image.load()
    if format_name == "JPEG":
        # The camera's orientation is metadata, which is dropped: turn the pixels instead.
        upright = ImageOps.exif_transpose(image)
        rgb = upright if upright.mode in ("RGB", "L") else upright.convert("RGB")
        rgb.save(out, "JPEG", quality=90)
    elif format_name == "WEBP":
        image.save(out, "WEBP", quality=90)
    else:
        image.save(out, format_name)
    return out.getvalue()
