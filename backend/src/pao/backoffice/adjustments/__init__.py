"""Manual adjustments of a member's wallet (maker-checker)."""
