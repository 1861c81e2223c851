"""The sandbox game provider: accounts, balances, idempotent transfers, a login page and a
small slot game, with failure injection — served under ``/sandbox/games`` when the sandbox is on.
"""
