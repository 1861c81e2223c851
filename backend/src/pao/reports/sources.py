"""Which ledger accounts are deposit sources, and which deposit channel each one is.

Each deposit channel credits the member's wallet *from its own clearing account*, so the account
on the other side of the credit names the channel (the table is in
``pao.backoffice.dashboard.figures``' history and in ADR 0015). Only the bank clearing account is
shared by two channels: the entries a slip row points at are slips (``marked``), the rest bank QR.
"""

from __future__ import annotations

from pao.ledger.models import AccountKind
from pao.payments.gateways.registry import GATEWAY_CODES
from pao.wallet.adjustments import ENTRY_KIND

SLIP, BANK_QR, TRUEMONEY, MANUAL = "slip", "bank_qr", "truemoney", "manual"
# In the order the screens list them.
CHANNELS: tuple[str, ...] = (SLIP, *GATEWAY_CODES, BANK_QR, TRUEMONEY, MANUAL)

DEPOSIT_SOURCES = frozenset(
    {
        AccountKind.BANK_CLEARING,
        AccountKind.GATEWAY_CLEARING,
        AccountKind.WALLET_PROVIDER_CLEARING,
        AccountKind.MANUAL_ADJUSTMENTS,
    }
)


# Back-office corrections (ADR 0010): money out of (or into) MANUAL_ADJUSTMENTS that no player
# brought in, so no deposit: the figures show them apart as goodwill credits (and debits).
# Money the operator received by hand for a member (``pao ops deposit``) leaves the same account
# with an entry kind of its own, and is a deposit (channel ``manual``).
CORRECTION_KINDS = frozenset(ENTRY_KIND.values())


def channel_of(kind: AccountKind, owner: str, *, marked: bool, entry_kind: str) -> str | None:
    """The deposit channel of money leaving an account of ``kind``/``owner`` in an entry of
    ``entry_kind``, if it is a deposit."""
    if entry_kind in CORRECTION_KINDS:
        return None
    match kind:
        case AccountKind.BANK_CLEARING:
            return SLIP if marked else BANK_QR
        case AccountKind.GATEWAY_CLEARING:
            return owner
        case AccountKind.WALLET_PROVIDER_CLEARING:
            return TRUEMONEY
        case AccountKind.MANUAL_ADJUSTMENTS:
            return MANUAL
    return None
