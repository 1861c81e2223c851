"""The sandbox bank's own small EMVCo TLV reader and writer and its CRC-16/CCITT-FALSE."""

from __future__ import annotations


class TlvError(ValueError):
    """The payload is not a well-formed TLV string or its CRC is wrong."""


def crc16(data: str) -> str:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) as 4 upper-case hex digits."""
    crc = 0xFFFF
    for byte in data.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return f"{crc:04X}"


def parse(payload: str) -> dict[str, str]:
    """Top-level tags → values; refuses bad lengths and duplicate tags."""
    fields: dict[str, str] = {}
    index = 0
    while index < len(payload):
        tag, size = payload[index : index + 2], payload[index + 2 : index + 4]
        if len(tag) != 2 or not size.isdigit():
            raise TlvError(f"bad TLV header at {index}")
        end = index + 4 + int(size)
        if end > len(payload) or tag in fields:
            raise TlvError(f"bad TLV field {tag}")
        fields[tag] = payload[index + 4 : end]
        index = end
    return fields


def field(tag: str, value: str) -> str:
    return f"{tag}{len(value):02d}{value}"


def with_crc(body: str, crc_tag: str) -> str:
    """Append the CRC field ``crc_tag`` (``63`` for EMV QR, ``91`` for slip mini QR)."""
    head = f"{body}{crc_tag}04"
    return head + crc16(head)


def check_crc(payload: str, crc_tag: str = "63") -> None:
    marker = payload.rfind(f"{crc_tag}04")
    if marker < 0 or marker + 8 != len(payload):
        raise TlvError("missing CRC")
    if crc16(payload[: marker + 4]) != payload[marker + 4 :].upper():
        raise TlvError("CRC mismatch")
