"""Bank transfer deposits proven by a slip image: decode, verify with the bank, credit once."""
