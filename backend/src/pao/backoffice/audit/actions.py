"""The actions the audit log records and what they act on, as data: what its filters offer.

Every ``action`` a back-office route or a ``pao ops`` command writes is listed here (a test
reads the sources and fails on one that is not), so the screen can offer them as a list and
name each in the reader's language instead of asking staff to type a code. Sign-ins (the
``auth.*`` actions: a password step, a login, a failure, a logout) are more than half the rows
of a working day, with the idle lock's lock and unlock; the filter can leave them out.
"""

from __future__ import annotations

from pao.backoffice.audit.service import SENSITIVE_READ, SESSION_LOCKS, SIGN_IN_PREFIX

# Grouped by area, in the order the filter lists them.
ACTIONS: tuple[str, ...] = (
    "withdrawal.claim",
    "withdrawal.release",
    "withdrawal.approve",
    "withdrawal.reject",
    "deposit.slip.approve",
    "deposit.slip.reject",
    "deposit.payment.match",
    "adjustment.request",
    "adjustment.approve",
    "adjustment.reject",
    "member.suspend",
    "member.reactivate",
    "member.logout",
    "member.password_reset",
    "member.bank_correct",
    "member.note",
    SENSITIVE_READ,
    "promotion.create",
    "promotion.update",
    "promotion.retire",
    "promotion.reactivate",
    "image.upload",
    "wheel.update",
    "settings.save",
    "settings.revert",
    "account.create",
    "account.update",
    "provider.maintenance.on",
    "provider.maintenance.off",
    "chat.assign",
    "chat.unassign",
    "staff.create",
    "staff.update",
    "staff.reset_password",
    "staff.reset_2fa",
    "staff.totp_enrolled",
    "session.end",
    "session.lock",
    "session.unlock",
    "session.unlock_failed",
    "auth.password_accepted",
    "auth.login",
    "auth.login_failed",
    "auth.logout",
)


# What the actions act on (the object type of a row), for the object filter's list.
OBJECT_TYPES: tuple[str, ...] = (
    "withdrawal",
    "slip",
    "bank_payment",
    "gateway_payment",
    "adjustment",
    "member",
    "bonus",
    "image",
    "wheel",
    "settings",
    "receiving_account",
    "provider",
    "chat_conversation",
    "staff",
    "staff_session",
)


def is_sign_in(action: str) -> bool:
    return action.startswith(SIGN_IN_PREFIX) or action in SESSION_LOCKS
