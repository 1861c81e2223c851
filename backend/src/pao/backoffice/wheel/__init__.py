"""The prize wheel editor."""
