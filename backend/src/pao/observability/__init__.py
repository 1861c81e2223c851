"""Running Pao in production: metrics, health and readiness probes, graceful shutdown.

It sits above the domains, like ``backoffice`` and ``ops``: it reads their tables for the
backlog gauges, and no domain imports it (domains count through :mod:`pao.core.metrics`).
``wiring.install`` puts it into the app; ADR 0012 records the decisions.
"""
