"""Thai PromptPay QR (EMVCo merchant-presented, tag 29) and Lao QR (LAPNet, tag 38).

:func:`build_promptpay` / :func:`parse_promptpay` and :func:`build_laoqr` /
:func:`parse_laoqr` are exact inverses (``parse(build(x)) == x``, property-tested). Amounts
are integer minor units: PromptPay shows baht with 2 decimals (``54`` = ``30.00``); Lao QR
carries whole kip only (``54`` = ``50000``), so a kip amount with satang is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from pao.payments.qr.emv import PayloadError, as_dict, check_crc, decode, encode, with_crc

PROMPTPAY_AID = "A000000677010111"
LAPNET_AID = "A005266284662577"
STATIC, DYNAMIC = "11", "12"
_THB, _LAK = "764", "418"
_MOBILE = re.compile(r"0\d{9}")
_THAI_AMOUNT = re.compile(r"\d{1,13}(\.\d{1,2})?")
_KIP_AMOUNT = re.compile(r"[1-9]\d{0,12}")
_RECEIVER = re.compile(r"[0-9A-Za-z]{1,40}")
_REFERENCE = re.compile(r"[0-9A-Za-z]{1,25}")


class ProxyKind(StrEnum):
    MOBILE = "01"  # 0066 + the 9 digits after the leading 0
    NATIONAL_ID = "02"  # national id or tax id, 13 digits
    EWALLET = "03"  # e-wallet id, 15 digits


@dataclass(frozen=True)
class PromptPayQr:
    kind: ProxyKind
    proxy: str  # as people write it: 0801234567, 1111111111111, 15-digit e-wallet id
    amount: int | None = None  # minor units (satang); None = static QR without amount
    reference: str | None = None  # 62/05 reference label (gateways put their order id here)


@dataclass(frozen=True)
class LaoQr:
    bank_id: str  # 8 digits, e.g. BCEL
    receiver_id: str
    amount: int | None = None  # minor units of LAK, whole kip only


def proxy_kind(proxy: str) -> ProxyKind:
    """Which PromptPay id a string is: a 10-digit mobile, a 13-digit id, a 15-digit e-wallet."""
    digits = proxy.strip()
    if _MOBILE.fullmatch(digits):
        return ProxyKind.MOBILE
    if digits.isdigit() and len(digits) == 13:
        return ProxyKind.NATIONAL_ID
    if digits.isdigit() and len(digits) == 15:
        return ProxyKind.EWALLET
    raise PayloadError(f"not a PromptPay id: {proxy!r}")


def _thai_amount(minor: int) -> str:
    if minor <= 0:
        raise PayloadError("a QR amount must be positive")
    return f"{minor // 100}.{minor % 100:02d}"


def build_promptpay(qr: PromptPayQr) -> str:
    if proxy_kind(qr.proxy) is not qr.kind:
        raise PayloadError(f"{qr.proxy!r} is not a {qr.kind.name} PromptPay id")
    value = "0066" + qr.proxy[1:] if qr.kind is ProxyKind.MOBILE else qr.proxy
    merchant = encode([("00", PROMPTPAY_AID), (qr.kind.value, value)])
    fields = [("00", "01"), ("01", STATIC if qr.amount is None else DYNAMIC), ("29", merchant)]
    fields.append(("53", _THB))
    if qr.amount is not None:
        fields.append(("54", _thai_amount(qr.amount)))
    fields.append(("58", "TH"))
    if qr.reference is not None:
        if not _REFERENCE.fullmatch(qr.reference):
            raise PayloadError("a reference label is 1..25 letters or digits")
        fields.append(("62", encode([("05", qr.reference)])))
    return with_crc(encode(fields))


def _common(top: dict[str, str], currency: str, country: str) -> None:
    if top.get("00") != "01":
        raise PayloadError("payload format indicator 00 must be 01")
    if top.get("01") not in (STATIC, DYNAMIC):
        raise PayloadError("point of initiation 01 must be 11 or 12")
    if top.get("53") != currency:
        raise PayloadError(f"currency 53 must be {currency}")
    if top.get("58") != country:
        raise PayloadError(f"country 58 must be {country}")


def parse_promptpay(payload: str) -> PromptPayQr:
    top = as_dict(check_crc(payload.strip()))
    _common(top, _THB, "TH")
    if "29" not in top:
        raise PayloadError("no PromptPay merchant field 29")
    merchant = as_dict(decode(top["29"]))
    if merchant.get("00") != PROMPTPAY_AID:
        raise PayloadError("field 29 is not PromptPay")
    ids = [kind for kind in ProxyKind if kind.value in merchant]
    if len(ids) != 1:
        raise PayloadError("field 29 needs exactly one PromptPay id")
    kind, value = ids[0], merchant[ids[0].value]
    if kind is ProxyKind.MOBILE:
        if not (len(value) == 13 and value.startswith("0066") and value.isdigit()):
            raise PayloadError("bad PromptPay mobile")
        proxy = "0" + value[4:]
    else:
        proxy = value
    if proxy_kind(proxy) is not kind:
        raise PayloadError("bad PromptPay id")
    amount: int | None = None
    if "54" in top:
        text = top["54"]
        if not _THAI_AMOUNT.fullmatch(text):
            raise PayloadError("bad amount 54")
        whole, _, fraction = text.partition(".")
        amount = int(whole) * 100 + int((fraction + "00")[:2])
        if amount <= 0:
            raise PayloadError("amount 54 must be positive")
    reference: str | None = None
    if "62" in top:
        reference = as_dict(decode(top["62"])).get("05")
        if reference is not None and not _REFERENCE.fullmatch(reference):
            raise PayloadError("bad reference label 62/05")
    return PromptPayQr(kind=kind, proxy=proxy, amount=amount, reference=reference)


def build_laoqr(qr: LaoQr) -> str:
    if not (len(qr.bank_id) == 8 and qr.bank_id.isdigit()):
        raise PayloadError("a LAPNet bank id has 8 digits")
    if not _RECEIVER.fullmatch(qr.receiver_id):
        raise PayloadError("bad Lao QR receiver id")
    if qr.amount is not None and (qr.amount <= 0 or qr.amount % 100):
        raise PayloadError("a Lao QR amount is a positive whole number of kip")
    merchant = encode(
        [
            ("00", LAPNET_AID),
            ("01", qr.bank_id),
            ("02", "001" if qr.amount is None else "002"),
            ("03", qr.receiver_id),
        ]
    )
    fields = [("00", "01"), ("01", STATIC if qr.amount is None else DYNAMIC), ("38", merchant)]
    fields.append(("53", _LAK))
    if qr.amount is not None:
        fields.append(("54", str(qr.amount // 100)))
    fields.append(("58", "LA"))
    return with_crc(encode(fields))


def parse_laoqr(payload: str) -> LaoQr:
    top = as_dict(check_crc(payload.strip()))
    _common(top, _LAK, "LA")
    if "38" not in top:
        raise PayloadError("no LAPNet merchant field 38")
    merchant = as_dict(decode(top["38"]))
    if merchant.get("00") != LAPNET_AID:
        raise PayloadError("field 38 is not LAPNet")
    bank_id, receiver = merchant.get("01", ""), merchant.get("03", "")
    if not (len(bank_id) == 8 and bank_id.isdigit()) or not _RECEIVER.fullmatch(receiver):
        raise PayloadError("bad LAPNet bank or receiver id")
    if merchant.get("02") not in ("001", "002"):
        raise PayloadError("field 38/02 must be 001 or 002")
    amount: int | None = None
    if "54" in top:
        if not _KIP_AMOUNT.fullmatch(top["54"]):
            raise PayloadError("a Lao QR amount is a whole number of kip")
        amount = int(top["54"]) * 100
    return LaoQr(bank_id=bank_id, receiver_id=receiver, amount=amount)
