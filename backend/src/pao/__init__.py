"""Pao: the member wallet of an online gaming operator."""

__version__ = "0.1.0"
