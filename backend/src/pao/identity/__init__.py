"""Identity: registration, OTP, login sessions, profile, password, bank account."""
