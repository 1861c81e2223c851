"""The receiving accounts of the deposit lookup (bank, gateway, TrueMoney)."""
