"""Payments: deposit lookup, bank slips, QR (PromptPay, Lao QR), gateways, TrueMoney, payouts."""
