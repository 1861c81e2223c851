"""Imports every table module so that ``Base.metadata`` is complete (Alembic, tests)."""

from pao.identity import models as identity_models
from pao.kit import idempotency, states
from pao.ledger import models as ledger_models
from pao.payments import accounts as payment_accounts
from pao.site import models as site_models
from pao.wallet import models as wallet_models

__all__ = [
    "idempotency",
    "identity_models",
    "ledger_models",
    "payment_accounts",
    "site_models",
    "states",
    "wallet_models",
]
