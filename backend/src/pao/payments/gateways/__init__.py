"""Payment gateways (WW, PAYTIMZ, PAYONEX): one adapter each behind :class:`GatewayAdapter`."""
