"""Logging in (password, then TOTP), out, and ``/me``."""
