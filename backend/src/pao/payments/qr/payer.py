"""Whose registered bank account paid an incoming transfer: the suggestion and the guard of a
match by hand (:func:`pao.payments.qr.matching.match_payment`).

A member's registered account is a bank code and an account number (identity:
``Member.bank_code``, ``Member.bank_account_no``, unique together). The bank's notification
may name the payer's bank (Pao's code, or the Thai clearing code SCB sends as sendingBankCode,
e.g. ``"014"``) and account number, and a bank may mask the number (``xxx-x-x1234-x``):

* a full number (digits only, once spaces and dashes are dropped) owns the transfer when it
  equals a member's number, at the same bank when the bank is known;
* a masked number (some x's, at least 4 visible digits) matches the members whose number has
  the same length and the same digits where the mask shows them; more than one such member is
  ambiguous: no single suggestion (:attr:`PayerOwners.ambiguous`);
* no number, or a mask that shows fewer than 4 digits: nobody is suggested.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from pao.identity.models import Member
from pao.site.banks import BANKS, find_bank

# Enough to tell one owner from several; the screen says "several", not how many.
MAX_OWNERS = 5
MIN_VISIBLE_DIGITS = 4
_SEPARATORS = re.compile(r"[\s\-.]")
_MASKED = re.compile(r"[0-9xX*]+")
_BY_CLEARING_CODE = {bank.slip_code: bank.code for bank in BANKS if bank.slip_code}


@dataclass(frozen=True)
class PayerOwners:
    """The members whose registered account may be the payer's (at most :data:`MAX_OWNERS`)."""

    members: tuple[Member, ...]
    masked: bool

    @property
    def ids(self) -> frozenset[int]:
        return frozenset(m.id for m in self.members)

    @property
    def suggestion(self) -> Member | None:
        """The one member whose account paid, or None (nobody, or several)."""
        return self.members[0] if len(self.members) == 1 else None

    @property
    def ambiguous(self) -> bool:
        return len(self.members) > 1


NOBODY = PayerOwners(members=(), masked=False)


def bank_code(payer_bank: str | None) -> str | None:
    """Pao's code of the payer's bank: its own code, or the one of a Thai clearing code."""
    if not payer_bank or not payer_bank.strip():
        return None
    code = payer_bank.strip().upper()
    if code.isdigit():
        return _BY_CLEARING_CODE.get(code.zfill(3))
    bank = find_bank(code)
    return bank.code if bank else code


def account_pattern(payer_account: str | None) -> tuple[str, bool] | None:
    """The account number as digits (full) or as a LIKE pattern with ``_`` for each masked
    digit (masked), or None when it cannot name anybody."""
    if not payer_account:
        return None
    text = _SEPARATORS.sub("", payer_account)
    if not _MASKED.fullmatch(text):
        return None
    if text.isdigit():
        return text, False
    if sum(c.isdigit() for c in text) < MIN_VISIBLE_DIGITS:
        return None
    return re.sub(r"[xX*]", "_", text), True


async def payer_owners(
    session: AsyncSession, *, payer_bank: str | None, payer_account: str | None
) -> PayerOwners:
    """The members whose registered bank account is (or, masked, may be) the payer's."""
    pattern = account_pattern(payer_account)
    if pattern is None:
        return NOBODY
    number, masked = pattern
    query = select(Member)
    if masked:
        query = query.where(
            func.length(Member.bank_account_no) == len(number),
            Member.bank_account_no.like(number),
        )
    else:
        query = query.where(Member.bank_account_no == number)
    bank = bank_code(payer_bank)
    if bank is not None:
        query = query.where(Member.bank_code == bank)
    rows = await session.execute(query.order_by(Member.id).limit(MAX_OWNERS))
    return PayerOwners(members=tuple(rows.scalars()), masked=masked)
