"""Roles, permissions and the grant between them, declared as data.

:data:`GRANTS` is the only place that says who may do what (GitLab's declarative policies):
each permission names the roles that hold it. Routes declare the permission they need
(:func:`pao.backoffice.deps.require`) and :func:`may` answers; nothing else tests a role.
The README's role table is kept equal to this map by a test.
"""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    OWNER = "owner"
    MANAGER = "manager"
    CASHIER = "cashier"
    SUPPORT = "support"
    VIEWER = "viewer"


class Permission(StrEnum):
    # Own account: see yourself, list and end your own sessions, log out.
    OWN_ACCOUNT = "own.account"
    STAFF_MANAGE = "staff.manage"
    AUDIT_READ = "audit.read"
    DASHBOARD_READ = "dashboard.read"
    REPORTS_READ = "reports.read"
    MEMBERS_READ = "members.read"
    # A member's full bank account number, game credentials, slip images (each read audited).
    MEMBERS_SENSITIVE_READ = "members.sensitive.read"
    MEMBERS_MANAGE = "members.manage"
    # Notes change nothing of the account, yet they are writing: the read-only viewer lacks it.
    MEMBERS_NOTE = "members.note"
    MEMBERS_CREDIT = "members.credit"
    MEMBERS_CREDIT_APPROVE = "members.credit.approve"
    WITHDRAWALS_READ = "withdrawals.read"
    WITHDRAWALS_DECIDE = "withdrawals.decide"
    DEPOSITS_READ = "deposits.read"
    DEPOSITS_DECIDE = "deposits.decide"
    ACCOUNTS_READ = "accounts.read"
    ACCOUNTS_MANAGE = "accounts.manage"
    CHAT_USE = "chat.use"
    PROMOTIONS_MANAGE = "promotions.manage"
    PROVIDERS_READ = "providers.read"
    PROVIDERS_MANAGE = "providers.manage"
    SETTINGS_MANAGE = "settings.manage"


OWNER, MANAGER, CASHIER, SUPPORT, VIEWER = (
    Role.OWNER,
    Role.MANAGER,
    Role.CASHIER,
    Role.SUPPORT,
    Role.VIEWER,
)

EVERYONE = frozenset(Role)
STAFF_WHO_READ_MONEY = frozenset({OWNER, MANAGER, CASHIER, VIEWER})

GRANTS: dict[Permission, frozenset[Role]] = {
    Permission.OWN_ACCOUNT: EVERYONE,
    Permission.STAFF_MANAGE: frozenset({OWNER}),
    Permission.AUDIT_READ: frozenset({OWNER, MANAGER}),
    Permission.DASHBOARD_READ: EVERYONE,
    Permission.REPORTS_READ: frozenset({OWNER, MANAGER, VIEWER}),
    Permission.MEMBERS_READ: EVERYONE,
    Permission.MEMBERS_SENSITIVE_READ: frozenset({OWNER, MANAGER, CASHIER}),
    Permission.MEMBERS_MANAGE: frozenset({OWNER, MANAGER}),
    Permission.MEMBERS_NOTE: frozenset({OWNER, MANAGER, CASHIER, SUPPORT}),
    Permission.MEMBERS_CREDIT: frozenset({OWNER, MANAGER, CASHIER}),
    Permission.MEMBERS_CREDIT_APPROVE: frozenset({OWNER, MANAGER}),
    Permission.WITHDRAWALS_READ: STAFF_WHO_READ_MONEY,
    Permission.WITHDRAWALS_DECIDE: frozenset({OWNER, MANAGER, CASHIER}),
    Permission.DEPOSITS_READ: STAFF_WHO_READ_MONEY,
    Permission.DEPOSITS_DECIDE: frozenset({OWNER, MANAGER, CASHIER}),
    Permission.ACCOUNTS_READ: STAFF_WHO_READ_MONEY,
    Permission.ACCOUNTS_MANAGE: frozenset({OWNER, MANAGER}),
    Permission.CHAT_USE: frozenset({OWNER, MANAGER, SUPPORT}),
    Permission.PROMOTIONS_MANAGE: frozenset({OWNER, MANAGER}),
    Permission.PROVIDERS_READ: EVERYONE,
    Permission.PROVIDERS_MANAGE: frozenset({OWNER, MANAGER}),
    Permission.SETTINGS_MANAGE: frozenset({OWNER}),
}


MEANING: dict[Permission, str] = {
    Permission.OWN_ACCOUNT: "see themselves, list and end their own sessions, log out",
    Permission.STAFF_MANAGE: "add staff, change roles, disable, reset 2FA and passwords",
    Permission.AUDIT_READ: "read the audit log",
    Permission.DASHBOARD_READ: "see the dashboard and the queues' counts",
    Permission.REPORTS_READ: "read reports",
    Permission.MEMBERS_READ: "search members and open their pages",
    Permission.MEMBERS_SENSITIVE_READ: "see full bank account numbers, game credentials, slips",
    Permission.MEMBERS_MANAGE: "suspend, reactivate, log out, reset passwords, fix bank details",
    Permission.MEMBERS_NOTE: "write notes on a member",
    Permission.MEMBERS_CREDIT: "request a manual credit or debit",
    Permission.MEMBERS_CREDIT_APPROVE: "approve another's manual credit above the limit",
    Permission.WITHDRAWALS_READ: "see the withdrawal queue",
    Permission.WITHDRAWALS_DECIDE: "claim, approve and reject withdrawals",
    Permission.DEPOSITS_READ: "see the deposit review queue",
    Permission.DEPOSITS_DECIDE: "approve and reject deposits, match transfers by hand",
    Permission.ACCOUNTS_READ: "see the receiving accounts",
    Permission.ACCOUNTS_MANAGE: "add, edit, enable and disable receiving accounts",
    Permission.CHAT_USE: "answer the support chat (the /agent inbox)",
    Permission.PROMOTIONS_MANAGE: "manage promotions",
    Permission.PROVIDERS_READ: "see each game provider's health and maintenance",
    Permission.PROVIDERS_MANAGE: "set a game provider into maintenance and end it",
    Permission.SETTINGS_MANAGE: "change the operator settings",
}


def may(role: str, permission: Permission) -> bool:
    """Whether ``role`` holds ``permission`` (an unknown role holds nothing)."""
    return role in GRANTS[permission]


def permissions_of(role: str) -> list[Permission]:
    """The permissions ``role`` holds, in declaration order (``GET /api/backoffice/me``)."""
    return [permission for permission in Permission if may(role, permission)]


def role_table() -> str:
    """The README's table of what each role may do (a test keeps the README equal to it)."""
    lines = [
        "| permission | what it allows | " + " | ".join(role.value for role in Role) + " |",
        "|---|---|" + "---|" * len(Role),
    ]
    for permission in Permission:
        marks = " | ".join("✓" if may(role, permission) else "" for role in Role)
        lines.append(f"| `{permission.value}` | {MEANING[permission]} | {marks} |")
    return "\n".join(lines)
