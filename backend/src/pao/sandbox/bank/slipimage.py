"""Slip images: what a banking app shows after a transfer, with the slip's mini QR.

A PNG drawn with Pillow: the transfer details as text and a QR (segno) carrying the
verification payload (sending bank + reference + CRC), which is what Pao actually reads.
"""

from __future__ import annotations

import io
from zoneinfo import ZoneInfo

import segno
from PIL import Image, ImageDraw, ImageFont

from pao.sandbox.bank.models import BankTransfer
from pao.sandbox.bank.service import slip_qr_payload

WIDTH, HEIGHT = 540, 760


def _ascii(text: str) -> str:
    # The built-in font has Latin glyphs only; a Thai or Lao name is shown as '-'.
    return text if text.isascii() and text.strip() else "-"


def _masked(account_no: str) -> str:
    return "xxx-x-" + account_no[-5:] if len(account_no) > 5 else account_no


def render_slip(record: BankTransfer) -> bytes:
    image = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(image)
    title = ImageFont.load_default(size=26)
    body = ImageFont.load_default(size=19)
    draw.rectangle((0, 0, WIDTH, 70), fill=(20, 120, 70))
    draw.text((24, 20), "Sandbox Bank - Transfer successful", font=title, fill="white")
    when = record.created_at.astimezone(ZoneInfo("Asia/Bangkok"))
    amount = f"{record.amount // 100:,}.{record.amount % 100:02d} {record.currency}"
    lines = [
        f"Date: {when:%d/%m/%Y %H:%M:%S}",
        f"From: {_ascii(record.from_name)}",
        f"      {record.from_bank} {_masked(record.from_account)}",
        f"To:   {_ascii(record.to_name)}",
        f"      {record.to_bank} {_masked(record.to_account)}",
        f"Amount: {amount}",
        f"Ref: {record.reference}",
    ]
    y = 100
    for line in lines:
        draw.text((24, y), line, font=body, fill=(30, 30, 30))
        y += 34
    qr = segno.make(slip_qr_payload(record), error="m", micro=False)
    buffer = io.BytesIO()
    qr.save(buffer, kind="png", scale=5, border=4)
    buffer.seek(0)
    with Image.open(buffer) as code:
        code_image = code.convert("RGB")
    image.paste(code_image, ((WIDTH - code_image.width) // 2, HEIGHT - code_image.height - 30))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()
