"""TrueMoney gift links: parse, redeem to the operator's wallet, credit each voucher once."""
