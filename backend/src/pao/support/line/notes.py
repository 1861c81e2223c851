"""What the inbox shows for a LINE message that is not plain text or an image Pao keeps.

The notes are text messages of the conversation, so that every screen of the chat shows them
without a message type of their own. They name what LINE sent (a sticker with its keywords,
a video), bracketed like a stage direction, so an agent tells them from what the user typed.
"""

from __future__ import annotations

from collections.abc import Sequence

# LINE's sticker keywords are up to 15; a few say enough.
_KEYWORDS = 5


def sticker_note(
    *, package_id: str, sticker_id: str, keywords: Sequence[str], text: str | None
) -> str:
    """``[LINE sticker: happy, thumbs up]`` (its text or keywords), with its ids to look it up."""
    words = text or ", ".join(k for k in keywords[:_KEYWORDS] if k)
    what = f": {words}" if words else ""
    return f"[LINE sticker{what}] ({package_id}/{sticker_id})"[:2000]


def other_note(kind: str, url: str | None) -> str:
    """A message kind the inbox does not show (video, audio, file, location, …)."""
    where = f" {url}" if url else ""
    return f"[LINE {kind[:20]}: not shown in Pao]{where}"[:2000]


def unreadable_image_note(code: str) -> str:
    """An image the chat refuses like an upload (type, size, pixels): the code says why."""
    return f"[LINE image refused: {code}]"
