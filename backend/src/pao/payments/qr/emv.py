"""EMVCo merchant-presented QR payloads: TLV encoding and the CRC-16 that closes them.

A payload is a sequence of ``TT LL VALUE`` fields (two-digit tag, two-digit length, value);
the last field is ``63`` with the CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection,
no final xor) of everything before its value, ``6304`` included, as 4 upper-case hex digits.
Template fields (e.g. ``29`` PromptPay, ``38`` LAPNet, ``62`` additional data) nest the same
TLV encoding in their value. Our own code, tested with the public vectors and properties.
"""

from __future__ import annotations

from collections.abc import Iterable

CRC_TAG = "63"


class PayloadError(ValueError):
    """A payload that is not well-formed TLV, or whose CRC does not match."""


def crc16_ccitt_false(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def crc_hex(text: str) -> str:
    return f"{crc16_ccitt_false(text.encode('utf-8')):04X}"


def field(tag: str, value: str) -> str:
    """One TLV field; the length counts characters (payloads are ASCII)."""
    if len(tag) != 2 or not tag.isdigit():
        raise PayloadError(f"bad tag {tag!r}")
    if not value.isascii():
        raise PayloadError(f"field {tag} is not ASCII")
    if not 0 < len(value) <= 99:
        raise PayloadError(f"field {tag} has length {len(value)} (1..99)")
    return f"{tag}{len(value):02d}{value}"


def encode(fields: Iterable[tuple[str, str]]) -> str:
    return "".join(field(tag, value) for tag, value in fields)


def decode(text: str) -> list[tuple[str, str]]:
    """Split TLV text into ``(tag, value)`` pairs, in order; strict about every length."""
    fields: list[tuple[str, str]] = []
    position = 0
    while position < len(text):
        header = text[position : position + 4]
        if len(header) < 4 or not header.isdigit():
            raise PayloadError(f"bad field header at {position}")
        length = int(header[2:])
        value = text[position + 4 : position + 4 + length]
        if length == 0 or len(value) != length:
            raise PayloadError(f"field {header[:2]} is truncated")
        fields.append((header[:2], value))
        position += 4 + length
    return fields


def with_crc(body: str) -> str:
    """Close a payload: append ``6304`` and the CRC over everything up to it."""
    head = body + CRC_TAG + "04"
    return head + crc_hex(head)


def check_crc(payload: str) -> list[tuple[str, str]]:
    """Decode a closed payload, verifying that ``63`` is last and its CRC matches."""
    if not payload.isascii():
        raise PayloadError("payload is not ASCII")
    fields = decode(payload)
    if not fields or fields[-1][0] != CRC_TAG or len(fields[-1][1]) != 4:
        raise PayloadError("the CRC field 63 must come last")
    if any(tag == CRC_TAG for tag, _ in fields[:-1]):
        raise PayloadError("more than one CRC field")
    expected = crc_hex(payload[:-4])
    if fields[-1][1].upper() != expected:
        raise PayloadError("CRC mismatch")
    return fields[:-1]


def as_dict(fields: list[tuple[str, str]]) -> dict[str, str]:
    result: dict[str, str] = {}
    for tag, value in fields:
        if tag in result:
            raise PayloadError(f"field {tag} appears twice")
        result[tag] = value
    return result
