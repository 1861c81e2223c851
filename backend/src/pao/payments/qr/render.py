"""Server-side QR rendering: the payload as inline SVG markup (``qrcode`` of the QR state)."""

from __future__ import annotations

import segno


def qr_svg(payload: str) -> str:
    """SVG markup with no XML declaration, so the client can inline it (after sanitising)."""
    code = segno.make(payload, error="m", micro=False)
    # omitsize: a viewBox instead of a fixed size, so the client can scale it.
    markup: str = code.svg_inline(scale=6, border=2, dark="#000", light="#fff", omitsize=True)
    return markup
