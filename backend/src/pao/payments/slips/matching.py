"""Whose accounts a verified slip names, when the provider shows them masked.

Providers mask account numbers (SlipOK shows ``xxx-x-x1234-x``). The visible digits are
matched by position (:func:`pao.payments.qr.payer.account_pattern`: same length, the same
digit wherever the mask shows one, at least 4 shown); a full number must be equal. Each
check answers YES, NO or UNCLEAR, and UNCLEAR is a case for staff review, never a credit:

* receiver: one of the operator's active bank accounts (same bank when the provider names
  it) fits → YES; none fits and none could → NO (DEST_ACC_INVALID); a mask Pao cannot read
  (no number, under 4 digits, another length) → UNCLEAR;
* sender: the member's registered account fits and no other member's does → YES; it does
  not fit → NO (NOT_MATCH); it fits but so does another member's (the visible digits cannot
  tell whose transfer it is: a slip shared in a group chat), or the mask cannot be read →
  UNCLEAR.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from sqlalchemy.ext.asyncio import AsyncSession

from pao.payments.qr.payer import account_pattern, bank_code, payer_owners


class Fit(StrEnum):
    YES = "YES"
    NO = "NO"
    UNCLEAR = "UNCLEAR"


def _digits(account_no: str | None) -> str:
    return re.sub(r"\D", "", account_no or "")


def account_fits(shown: str | None, account_no: str | None) -> Fit:
    """Whether ``account_no`` (full) is the account ``shown`` (full or masked)."""
    pattern = account_pattern(shown)
    number = _digits(account_no)
    if pattern is None or not number:
        return Fit.UNCLEAR
    text, masked = pattern
    if not masked:
        return Fit.YES if text == number else Fit.NO
    if len(text) != len(number):
        # Another mask format (the length not kept): the digits cannot be placed.
        return Fit.UNCLEAR
    same = all(m == "_" or m == d for m, d in zip(text, number, strict=True))
    return Fit.YES if same else Fit.NO


def _same_bank(shown_bank: str | None, bank: str) -> bool:
    code = bank_code(shown_bank)
    return code is None or code == bank.upper()


def receiver_fit(
    shown_bank: str | None, shown_account: str | None, ours: Iterable[tuple[str, str]]
) -> Fit:
    """Whether the slip's receiver is one of ``ours`` ((bank code, account no) pairs)."""
    fits = {
        account_fits(shown_account, number) for bank, number in ours if _same_bank(shown_bank, bank)
    }
    if Fit.YES in fits:
        return Fit.YES
    if Fit.UNCLEAR in fits or account_pattern(shown_account) is None:
        return Fit.UNCLEAR
    return Fit.NO


async def sender_fit(
    session: AsyncSession,
    *,
    member_id: int,
    member_bank: str,
    member_account: str,
    shown_bank: str | None,
    shown_account: str | None,
) -> Fit:
    """Whether the slip's sender is the member's registered account, and only theirs."""
    if not _same_bank(shown_bank, member_bank):
        return Fit.NO
    own = account_fits(shown_account, member_account)
    if own is not Fit.YES:
        return own
    pattern = account_pattern(shown_account)
    if pattern is None or not pattern[1]:
        return Fit.YES  # a full number equal to the member's
    owners = await payer_owners(session, payer_bank=shown_bank, payer_account=shown_account)
    others = owners.ids - {member_id}
    return Fit.UNCLEAR if others else Fit.YES
