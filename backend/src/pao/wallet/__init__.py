"""Wallet: summary, withdrawals, statements."""
