"""Staff identity: the staff list and its rules, roles and permissions, TOTP, and the staff's
socket rooms (live events)."""
