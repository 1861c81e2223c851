"""HTTP routes of pao.promotions, one router per sub-domain: bonuses, promotion codes, invite,
refund, prize wheel (in the contract's order).

The contract makes several money-moving calls ``GET``s (activate, clear, invite bonus, refund
receive/addWallet). They are idempotent by *state*: each runs under the member lock and pays
only what is still due, so a repeated or concurrent call pays nothing more. Like every money
call they also honour an ``Idempotency-Key`` (money rule 5), so that a retry after a lost
answer gets the first answer again rather than a refusal such as ``NO_INVITE_BONUS``.
"""
