"""Which adapter serves which gateway code, configured from the deployment settings."""

from __future__ import annotations

from pao.core.settings import Settings
from pao.payments.gateways.base import GatewayAdapter, gateway_base_url
from pao.payments.gateways.payonex import PayonexAdapter
from pao.payments.gateways.paytimz import PaytimzAdapter
from pao.payments.gateways.ww import WwAdapter

GATEWAY_CODES = ("WW", "PAYTIMZ", "PAYONEX")


def adapter_for(settings: Settings, code: str) -> GatewayAdapter | None:
    base = gateway_base_url(settings)
    match code.upper():
        case "WW":
            return WwAdapter(base_url=base, secret=settings.gateway_ww_secret)
        case "PAYTIMZ":
            return PaytimzAdapter(base_url=base, secret=settings.gateway_paytimz_secret)
        case "PAYONEX":
            return PayonexAdapter(base_url=base, secret=settings.gateway_payonex_secret)
    return None
