"""Ledger refusals. ``InsufficientFunds`` is the catalogue's MONEY_NOT_ENOUGH."""

from __future__ import annotations

from pao.core.errors import BadRequest


class InsufficientFunds(BadRequest):
    code = "MONEY_NOT_ENOUGH"


class UnbalancedEntry(ValueError):
    """A programming error: postings that do not sum to zero per currency."""


class AlreadyReversed(ValueError):
    """An entry is reversed at most once (also enforced by a unique index)."""
