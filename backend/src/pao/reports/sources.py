"""Which ledger accounts are deposit sources, and which deposit channel each one is.

Each deposit channel credits the member's wallet *from its own clearing account*, so the account
on the other side of the credit names the channel (the table is in
``pao.backoffice.dashboard.figures``' history and in ADR 0015). Only the bank clearing account is
shared by two channels: the entries a slip row points at are slips (``marked``), the rest bank QR.
"""

from __future__ import annotations

from pao.ledger.models import AccountKind
from pao.payments.gateways.registry import GATEWAY_CODES

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


def channel_of(kind: AccountKind, owner: str, *, marked: bool) -> str | None:
    """The deposit channel of money leaving an account of ``kind``/``owner``, if any."""
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
