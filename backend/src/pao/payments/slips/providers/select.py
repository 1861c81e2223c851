"""The slip verifier of the deployment (``PAO_SLIP_VERIFIER``), built from the app's state."""

from __future__ import annotations

from typing import Any

from pao.payments.scb.oauth import ScbOAuth
from pao.payments.slips.port import SlipVerifier
from pao.payments.slips.providers.easyslip import EasySlipVerifier
from pao.payments.slips.providers.scb import ScbSlipVerifier
from pao.payments.slips.providers.slipok import SlipOkVerifier
from pao.payments.slips.verifier import PaoSlipVerifier


def build_verifier(state: Any) -> SlipVerifier:
    """``state`` is the app's: its settings, HTTP client and SCB token cache."""
    settings, http = state.settings, state.http
    match settings.slip_verifier:
        case "slipok":
            return SlipOkVerifier(http, settings)
        case "easyslip":
            return EasySlipVerifier(http, settings)
        case "scb":
            return ScbSlipVerifier(http, settings, ScbOAuth(http, settings, state.scb_tokens))
        case _:
            return PaoSlipVerifier(http, settings)
