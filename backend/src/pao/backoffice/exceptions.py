"""Refusals of the back office, one class per catalogue code. Hierarchy::

    AppError
     ├── Unauthorized (401)
     │    ├── StaffWrongCredential     WRONG_CREDENTIAL       login or password wrong
     │    ├── StaffLoginExpired        STAFF_LOGIN_EXPIRED    ticket unknown, used or old
     │    ├── StaffCodeInvalid         STAFF_CODE_INVALID     the TOTP code is wrong
     │    ├── StaffCodeUsed            STAFF_CODE_USED        the code was used already (replay)
     │    ├── StaffUnlockRefused       WRONG_CREDENTIAL       wrong password at the lock screen
     │    └── StaffSessionEnded        invalid-token          ended by the last wrong password
     ├── Forbidden (403)
     │    ├── StaffForbidden           STAFF_FORBIDDEN        the role lacks the route's permission
     │    ├── StaffDisabled            STAFF_DISABLED         right password, disabled account
     │    └── StaffSelfChange          STAFF_SELF_CHANGE      own role, own account's state, own 2FA
     ├── NotFound (404)
     │    ├── StaffNotFound            STAFF_NOT_FOUND
     │    └── StaffSessionNotFound     STAFF_SESSION_NOT_FOUND
     ├── Conflict (409)
     │    ├── StaffLoginTaken          STAFF_LOGIN_TAKEN
     │    └── StaffLastOwner           STAFF_LAST_OWNER       the last active owner stays one
     ├── StaffSessionLocked (423)      SESSION_LOCKED         idle or locked: the password again
     └── TooManyRequests (429)         REQUEST_LIMIT          login throttle

A failed login or unlock step keeps what it wrote (its audit row, the try it reserved, the
lock recorded on the way), hence ``keeps_changes``.
"""

from __future__ import annotations

from pao.core.errors import AppError, Conflict, Forbidden, NotFound, Unauthorized


class StaffWrongCredential(Unauthorized):
    code = "WRONG_CREDENTIAL"
    keeps_changes = True


class StaffLoginExpired(Unauthorized):
    code = "STAFF_LOGIN_EXPIRED"


class StaffCodeInvalid(Unauthorized):
    code = "STAFF_CODE_INVALID"
    keeps_changes = True


class StaffCodeUsed(Unauthorized):
    code = "STAFF_CODE_USED"
    keeps_changes = True


class StaffUnlockRefused(Unauthorized):
    """A wrong password at the lock screen; the answer says how many tries are left
    (``attemptsLeft``)."""

    code = "WRONG_CREDENTIAL"
    keeps_changes = True


class StaffSessionEnded(Unauthorized):
    code = "invalid-token"
    keeps_changes = True


class StaffSessionLocked(AppError):
    """The session is locked (idle, or locked by hand): every route refuses it but unlock,
    lock and logout. 423 rather than 401, so a client asks for the password, not a login."""

    status_code = 423
    code = "SESSION_LOCKED"
    keeps_changes = True


class StaffForbidden(Forbidden):
    code = "STAFF_FORBIDDEN"


class StaffDisabled(Forbidden):
    code = "STAFF_DISABLED"


class StaffSelfChange(Forbidden):
    code = "STAFF_SELF_CHANGE"


class StaffNotFound(NotFound):
    code = "STAFF_NOT_FOUND"


class StaffSessionNotFound(NotFound):
    code = "STAFF_SESSION_NOT_FOUND"


class StaffLoginTaken(Conflict):
    code = "STAFF_LOGIN_TAKEN"


class StaffLastOwner(Conflict):
    code = "STAFF_LAST_OWNER"
