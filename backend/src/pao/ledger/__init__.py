"""The ledger: double-entry journal, cached balances, two-phase holds. The only writer of money."""
