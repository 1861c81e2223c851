"""The slip-verification port: what every provider's adapter answers about one slip.

An adapter (``pao`` in :mod:`pao.payments.slips.verifier`, the real providers in
:mod:`pao.payments.slips.providers`) turns its provider's wire answer into exactly one of:

* a :class:`VerifiedTransfer`: the provider knows the transfer (its account numbers may be
  masked, e.g. ``xxx-x-x1234-x``; :mod:`pao.payments.slips.matching` judges them);
* ``None``: the provider says there is no such transfer (INVALID_SLIP, a person may look);
* :class:`SlipRefused`: a definite no with a reason of Pao's (receiver mismatch, the
  provider's duplicate, an amount mismatch);
* :class:`VerifierUnavailable` (raised): the outcome is unknown (down, quota, "too new, try
  later", bad credentials, an answer the adapter cannot classify). The slip stays PENDING and
  the reconciler asks again; money moves only on a definite, verified yes.

Exceptions::

    Exception
     ├── VerifierUnavailable   unknown → retried
     └── SlipRefused           a definite answer that is not a yes (reason, review?, transfer?)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pao.payments.slips.models import SlipReason


class VerifierUnavailable(Exception):
    """The provider could not answer, or answered something Pao cannot classify."""


@dataclass(frozen=True)
class VerifiedTransfer:
    reference: str
    sending_bank: str
    amount: int  # minor units
    currency: str
    transferred_at: datetime  # tz-aware
    sender_bank: str
    sender_account: str  # full or masked (x for a hidden digit, separators allowed)
    receiver_bank: str
    receiver_account: str


class SlipRefused(Exception):
    """The provider's definite "no" for this slip, mapped to a reason of Pao's.

    ``review`` opens the staff review whatever the reason (the provider's own duplicate flag:
    Pao's ledger never credited the transfer, so a person decides). ``transfer`` is what the
    provider still told about the slip, if anything (kept on the slip for the reviewer)."""

    def __init__(
        self,
        reason: SlipReason,
        *,
        answer: str,
        review: bool = False,
        transfer: VerifiedTransfer | None = None,
    ) -> None:
        super().__init__(f"{reason} ({answer})")
        self.reason = reason
        self.answer = answer
        self.review = review
        self.transfer = transfer


@dataclass(frozen=True)
class SlipQuery:
    """What Pao knows of a slip before asking: its mini QR's fields and the QR text itself
    (SlipOK and EasySlip take the QR text; ``payload`` is None when it is not at hand)."""

    sending_bank: str
    reference: str
    payload: str | None = None


class SlipVerifier(Protocol):
    """One provider's slip check (``PAO_SLIP_VERIFIER``)."""

    # The provider's label in pao_provider_calls_total and in the slip's bank_lookup.
    name: str
    # Whether lookup() needs SlipQuery.payload (the reconciler re-reads the stored image).
    needs_payload: bool

    async def lookup(self, query: SlipQuery) -> VerifiedTransfer | None: ...


CURRENCY_BY_NUMBER = {"764": "THB", "418": "LAK"}


def to_minor(amount: Decimal) -> int:
    """Major units (at most 2 decimals, not negative) → minor units; ValueError otherwise."""
    try:
        if not amount.is_finite():
            raise ValueError("amount is not a number")
        minor = amount.scaleb(2)
        if minor != minor.to_integral_value() or minor < 0:
            raise ValueError("amount has more than 2 decimals")
        return int(minor)
    except InvalidOperation as exc:
        raise ValueError("bad amount") from exc
