"""The login behind a bearer token as a PostgreSQL function, for the money requests that are one
statement (ADR 0039): ``pao_member_of_token`` answers the member of an open login whose status
is the one passed (``MemberStatus.ACTIVE``), else a row of nulls: the columns those requests
read (not the table's row type, on which a function would make the table depend). These are
:mod:`pao.identity.deps`' rules (a known token, neither revoked nor expired at ``p_now``, an
active member), which the wallet screen applies to its own one statement too (ADR 0037).
Applied by the migration (and the test and bench schemas); nothing on SQLite.
"""

from __future__ import annotations

DROP_POSTGRES = ["DROP FUNCTION IF EXISTS pao_member_of_token"]

POSTGRES = [
    *DROP_POSTGRES,
    """
    CREATE FUNCTION pao_member_of_token(
      p_digest text, p_now timestamptz, p_active_status text,
      OUT id bigint, OUT currency text, OUT bank_code text, OUT bank_account_name text,
      OUT bank_account_no text, OUT limits_set boolean, OUT excluded_until timestamptz
    ) LANGUAGE sql STABLE AS $$
      SELECT m.id, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no,
             m.limits_set, m.excluded_until
      FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id
      WHERE s.token_digest = p_digest AND s.revoked_at IS NULL AND s.expires_at > p_now
        AND m.status = p_active_status
    $$
    """,
]


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else []
