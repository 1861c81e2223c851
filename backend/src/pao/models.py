"""Imports every table module so that ``Base.metadata`` is complete (Alembic, tests)."""

from pao.backoffice import models as backoffice_models
from pao.games import models as games_models
from pao.games.seamless import models as seamless_models
from pao.identity import models as identity_models
from pao.kit import idempotency, states
from pao.ledger import models as ledger_models
from pao.payments import accounts as payment_accounts
from pao.payments.payouts import models as payout_models
from pao.payments.qr import models as qr_models
from pao.payments.slips import models as slip_models
from pao.payments.truemoney import models as truemoney_models
from pao.promotions import models as promotions_models
from pao.promotions import subscribers as promotions_subscribers
from pao.protection import flags as protection_flags
from pao.protection import models as protection_models
from pao.reports import models as report_models
from pao.site import models as site_models
from pao.support import models as support_models
from pao.support.line import models as line_models
from pao.support.line import notices as line_notices
from pao.wallet import models as wallet_models

__all__ = [
    "backoffice_models",
    "games_models",
    "idempotency",
    "identity_models",
    "ledger_models",
    "line_models",
    "line_notices",
    "payment_accounts",
    "payout_models",
    "promotions_models",
    "promotions_subscribers",
    "protection_flags",
    "protection_models",
    "qr_models",
    "report_models",
    "seamless_models",
    "site_models",
    "slip_models",
    "states",
    "support_models",
    "truemoney_models",
    "wallet_models",
]
