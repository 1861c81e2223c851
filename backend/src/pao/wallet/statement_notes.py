"""Statement notes as codes: what a bonus, refund, invite or wheel line says, in any language.

A line's note (spec §3: the ``description`` of its bonus, promotion, invite, refund or
luckydraw detail) is stored as a code and parameters, e.g. ``bonus.received`` with the bonus's
name per locale, never as a sentence in one language (ADR 0011). The client translates the code
with its own catalogue (``statement.notes.<code>`` in frontend/src/locales); the ``description``
that the contract has always carried is still filled, rendered here in the asked locale from
:data:`NOTE_TEXTS`, for clients that do not know the codes.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from pao.kit.i18n import Locale, pick_text


class NoteCode(StrEnum):
    BONUS_RECEIVED = "bonus.received"  # params: name
    BONUS_FINISHED = "bonus.finished"  # params: name
    PROMOTION_RECEIVED = "promotion.received"  # params: name
    REFUND_RECEIVED = "refund.received"
    INVITE_COLLECTED = "invite.collected"
    LUCKYDRAW_PRIZE = "luckydraw.prize"  # params: prize
    # A withdrawal that was not paid: staff rejected it, or the bank refused the payout. The
    # reason is what staff wrote for the member (the back office says the member reads it).
    WITHDRAW_REJECTED = "withdraw.rejected"  # params: reason
    WITHDRAW_FAILED = "withdraw.failed"  # params: reason


# The server's rendering of each code (``{param}`` is replaced by the parameter in the same
# locale). The bonus and prize lines say the operator's own name, as they always did.
NOTE_TEXTS: dict[NoteCode, dict[str, str]] = {
    NoteCode.BONUS_RECEIVED: {"th": "{name}", "la": "{name}", "en": "{name}"},
    NoteCode.BONUS_FINISHED: {"th": "{name}", "la": "{name}", "en": "{name}"},
    NoteCode.PROMOTION_RECEIVED: {"th": "{name}", "la": "{name}", "en": "{name}"},
    NoteCode.REFUND_RECEIVED: {"th": "คืนยอดเสีย", "la": "ຄືນຍອດເສຍ", "en": "Refund"},
    NoteCode.INVITE_COLLECTED: {
        "th": "โบนัสแนะนำเพื่อน",
        "la": "ໂບນັດແນະນຳໝູ່",
        "en": "Invite bonus",
    },
    NoteCode.LUCKYDRAW_PRIZE: {"th": "{prize}", "la": "{prize}", "en": "{prize}"},
    NoteCode.WITHDRAW_REJECTED: {
        "th": "ไม่อนุมัติ: {reason} เงินคืนเข้ากระเป๋าแล้ว",
        "la": "ບໍ່ອະນຸມັດ: {reason} ເງິນຄືນເຂົ້າກະເປົາແລ້ວ",
        "en": "Not approved: {reason}. The money is back in your wallet.",
    },
    NoteCode.WITHDRAW_FAILED: {
        "th": "ธนาคารโอนไม่สำเร็จ: {reason} เงินคืนเข้ากระเป๋าแล้ว",
        "la": "ທະນາຄານໂອນບໍ່ສຳເລັດ: {reason} ເງິນຄືນເຂົ້າກະເປົາແລ້ວ",
        "en": "The bank did not pay it: {reason}. The money is back in your wallet.",
    },
}


def note(code: NoteCode, **params: Mapping[str, str] | str) -> dict[str, Any]:
    """The stored note of a line: its code, its parameters (each a text per locale or a plain
    value) and a ``description`` in English for whatever reads the raw row."""
    stored = {
        name: dict(value) if isinstance(value, Mapping) else value for name, value in params.items()
    }
    return {
        "code": code.value,
        "params": stored,
        "description": render(code.value, stored, "en", fallback="en")[:500],
    }


def params_in(
    params: Mapping[str, Any] | None, locale: Locale, *, fallback: Locale
) -> dict[str, str]:
    """Each parameter in one locale (a per-locale text picked with the usual fallback)."""
    return {
        name: pick_text(value, locale, fallback=fallback)
        if isinstance(value, (Mapping, str))
        else str(value)
        for name, value in (params or {}).items()
    }


def render(code: str, params: Mapping[str, Any] | None, locale: Locale, *, fallback: Locale) -> str:
    """The note in ``locale``; an unknown code renders as its name parameter, or empty."""
    values = params_in(params, locale, fallback=fallback)
    try:
        template = pick_text(NOTE_TEXTS[NoteCode(code)], locale, fallback=fallback)
    except ValueError:
        return values.get("name", "")
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return template
