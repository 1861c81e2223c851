"""The seamless wallet: game providers that spend the member's Pao wallet directly.

A seamless provider (an aggregator such as Hub88 or AMB) has no game account and no transfer:
it calls Pao for every balance, bet, win and rollback. :mod:`.core` owns the money rules
(dialect-neutral); each aggregator's protocol is a thin dialect package (:mod:`.hub88`,
:mod:`.amb`) that authenticates the raw body, maps fields and codes and calls the core.
ADR 0025 records the decisions.
"""

# The providers whose games are seamless (a game row's ``provider``); every other is transfer.
SEAMLESS_PROVIDERS = frozenset({"hub88"})
