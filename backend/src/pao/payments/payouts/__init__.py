"""Payouts: approved withdrawals paid to the member's registered bank account."""
