"""Player protection: deposit limits, time-outs and self-exclusion (issue 33 §4).

The rules live in :mod:`.service`; every way money comes in or goes to play asks it first
(deposits, game transfers, seamless bets, bonuses), and withdrawals never do: an excluded
member can always take their balance out. docs/domain/player-protection.md says what Pao
guarantees.
"""
