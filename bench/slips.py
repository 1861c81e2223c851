"""The slip bench's slips: one distinct slip image per request, made at seed time.

A slip's mini QR names its transfer (sending bank + reference), and a transfer credits once
(``slip_claims`` is unique on it), so every upload the bench sends must carry a slip of its
own. :func:`generate` draws them before anything is timed: ``<WORK_DIR>/slips/<k>.png``, a
phone-screenshot-sized PNG (480×700, as the tests' slips) with the QR at the bottom, slip ``k``
belonging to member ``member_for(k)``. Its reference names the member, so that the in-process
bank (``bench.app.InstantBank``) answers with that member's seeded bank account as the sender:
the slip is judged as a real one would be (receiver, sender, currency, window, minimum) and
credited.
"""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import segno
from PIL import Image

from bench.common import WORK_DIR, log

SLIP_DIR = WORK_DIR / "slips"
SENDING_BANK = "004"  # the 3-digit clearing code in the QR
MEMBER_BANK = "KBANK"  # every bench member's bank (bench.seed)
OPERATOR_BANK, OPERATOR_ACCOUNT = (
    "SCB",
    "4441112223",
)  # the receiving account (bench.seed)
AMOUNT = 1_00  # minor units per slip, 1 THB
# Slips drawn per run: every upload spends one (and wrk's two threads up to one more each),
# at up to ≈ 150 uploads a second over 3 rounds of 8 s and the warm-up, with room to spare
# (the reservation counts each of wrk's threads as if it had sent them all: bench.wallet).
COUNT, COUNT_QUICK = 10_000, 2_000
_REFERENCE = re.compile(r"BENCH(\d{6})S(\d{8})")


def member_account(member: int) -> str:
    """The member's seeded bank account number (bench.seed)."""
    return f"{member:010d}"


def member_for(k: int, members: int) -> int:
    """The member slip ``k`` (1-based) belongs to: round robin (bench/lua/pao.lua too)."""
    return (k - 1) % members + 1


def reference_of(k: int, member: int) -> str:
    return f"BENCH{member:06d}S{k:08d}"


def member_of(reference: str) -> int | None:
    found = _REFERENCE.fullmatch(reference)
    return int(found.group(1)) if found else None


def _tlv(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def payload_of(reference: str) -> str:
    """The slip mini QR (the decoder's format: TLV, CRC-16/CCITT-FALSE last)."""
    from pao.payments.slips.decoder import crc16

    inner = _tlv("00", "000001") + _tlv("01", SENDING_BANK) + _tlv("02", reference)
    head = _tlv("00", inner) + _tlv("51", "TH") + "9104"
    return head + f"{crc16(head):04X}"


def slip_png(reference: str) -> bytes:
    code_buffer = io.BytesIO()
    segno.make(payload_of(reference), error="m", micro=False).save(
        code_buffer, kind="png", scale=5, border=4
    )
    code_buffer.seek(0)
    code = Image.open(code_buffer).convert("RGB")
    canvas = Image.new("RGB", (480, 700), "white")
    canvas.paste(code, ((480 - code.width) // 2, 700 - code.height - 20))
    out = io.BytesIO()
    canvas.save(out, format="PNG")
    return out.getvalue()


def path_of(k: int) -> Path:
    return SLIP_DIR / f"{k}.png"


def generate(count: int, members: int) -> None:
    """``count`` distinct slips, 1…count (the directory is emptied first)."""
    shutil.rmtree(SLIP_DIR, ignore_errors=True)
    # What the bare slip handler (bench.bare_script) stored in an earlier run.
    shutil.rmtree(WORK_DIR / "bare-slips", ignore_errors=True)
    SLIP_DIR.mkdir(parents=True)
    for k in range(1, count + 1):
        path_of(k).write_bytes(slip_png(reference_of(k, member_for(k, members))))
    log(f"drew {count} distinct slips into {SLIP_DIR}")


class Cursor:
    """The next unused slip: every wrk run takes slips from here, never one twice."""

    def __init__(self, count: int) -> None:
        self.next = 1
        self.count = count

    def take(self, used: int) -> None:
        self.next += used
        if self.next > self.count:
            raise RuntimeError(
                f"the slip bench used {self.next - 1} slips of {self.count}: draw more"
            )
