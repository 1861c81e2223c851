"""The operator's side: staff identity (password + TOTP, sessions), roles and permissions
(declared as data), the audit log, and the routers under ``/api/backoffice/*``.

It sits above the domains, like :mod:`pao.ops`: a back-office route checks the permission,
calls a domain's service function and writes the audit row; the domains never import this
package (the chat gets its agents through :class:`pao.support.agents.AgentDirectory`).
"""
