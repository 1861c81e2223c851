"""Database guards of the back office, applied by its migration (and the test schema).

The audit log is append-only: UPDATE and DELETE of ``audit_log`` rows raise, on PostgreSQL
through the ledger's ``pao_append_only()`` function (created by the first migration, see
:mod:`pao.ledger.ddl`), on SQLite through triggers of its own. TRUNCATE (tests only) is not a
row operation.
"""

from __future__ import annotations

POSTGRES = [
    """
    CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION pao_append_only()
    """,
]

SQLITE = [
    """
    CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END
    """,
    """
    CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
    BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END
    """,
]

DROP = {
    "postgresql": ["DROP TRIGGER IF EXISTS audit_log_append_only ON audit_log"],
    "sqlite": [
        "DROP TRIGGER IF EXISTS audit_log_no_update",
        "DROP TRIGGER IF EXISTS audit_log_no_delete",
    ],
}


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else SQLITE
