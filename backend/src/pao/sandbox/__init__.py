"""The built-in sandbox: fake third parties (SMS, banks, gateways, game providers) over HTTP.

Served under ``/sandbox`` only when ``PAO_SANDBOX=1``. It keeps its own state in its own
SQLite file, as a real third party would keep its own, so that a Pao transaction that calls
out to it never waits on itself.
"""
