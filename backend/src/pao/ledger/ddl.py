"""Database-level guards of the ledger, applied by the migration (and the test schema).

* PostgreSQL: a deferred constraint trigger refuses, at commit, any journal entry whose
  postings do not sum to zero per currency (django-hordak's approach).
* Both: postings, journal entries and resolved holds are append-only — UPDATE and DELETE of
  postings/entries raise. (TRUNCATE, used only by tests, is not a row operation.)
"""

from __future__ import annotations

POSTGRES = [
    """
    CREATE OR REPLACE FUNCTION pao_check_entry_balanced() RETURNS trigger AS $$
    BEGIN
      IF EXISTS (
        SELECT 1 FROM postings WHERE entry_id = NEW.entry_id
        GROUP BY currency HAVING SUM(amount) <> 0
      ) THEN
        RAISE EXCEPTION 'journal entry % does not balance', NEW.entry_id
          USING ERRCODE = 'check_violation';
      END IF;
      RETURN NULL;
    END $$ LANGUAGE plpgsql
    """,
    """
    CREATE CONSTRAINT TRIGGER postings_balanced AFTER INSERT ON postings
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION pao_check_entry_balanced()
    """,
    """
    CREATE OR REPLACE FUNCTION pao_append_only() RETURNS trigger AS $$
    BEGIN
      RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'restrict_violation';
    END $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings
    FOR EACH ROW EXECUTE FUNCTION pao_append_only()
    """,
    """
    CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries
    FOR EACH ROW EXECUTE FUNCTION pao_append_only()
    """,
]

SQLITE = [
    """
    CREATE TRIGGER postings_no_update BEFORE UPDATE ON postings
    BEGIN SELECT RAISE(ABORT, 'postings is append-only'); END
    """,
    """
    CREATE TRIGGER postings_no_delete BEFORE DELETE ON postings
    BEGIN SELECT RAISE(ABORT, 'postings is append-only'); END
    """,
    """
    CREATE TRIGGER journal_entries_no_update BEFORE UPDATE ON journal_entries
    BEGIN SELECT RAISE(ABORT, 'journal_entries is append-only'); END
    """,
    """
    CREATE TRIGGER journal_entries_no_delete BEFORE DELETE ON journal_entries
    BEGIN SELECT RAISE(ABORT, 'journal_entries is append-only'); END
    """,
]

DROP_POSTGRES = [
    "DROP TRIGGER IF EXISTS journal_entries_append_only ON journal_entries",
    "DROP TRIGGER IF EXISTS postings_append_only ON postings",
    "DROP TRIGGER IF EXISTS postings_balanced ON postings",
    "DROP FUNCTION IF EXISTS pao_append_only()",
    "DROP FUNCTION IF EXISTS pao_check_entry_balanced()",
]


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else SQLITE
