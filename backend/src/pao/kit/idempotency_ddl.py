"""The ``Idempotency-Key`` record (:mod:`pao.kit.idempotency`) as PostgreSQL functions, for the
money requests that are one statement (ADR 0039), with the kit's rules:

* ``pao_key_record(owner, key, request_hash)``: the recorded answer of the key, if any.
  ``outcome`` is ``REPLAYED`` (same request: ``answer`` is the first answer), ``KEY_REUSED``
  (another request) or null (no record).
* ``pao_claim_key(owner, key, request_hash, now)``: the key claimed, ``claim_id`` its new row,
  by ``INSERT … ON CONFLICT DO NOTHING``. A duplicate in flight makes it wait on the unique
  index. If that duplicate committed, ``claim_id`` is null and ``outcome`` and ``answer`` are
  its record's, as ``pao_key_record`` answers them.

The caller writes the answer into the claimed row, or deletes the row when it refuses after the
claim, as a rollback would take it back. Applied by the migration (and the test and bench
schemas); nothing on SQLite.
"""

from __future__ import annotations

DROP_POSTGRES = [
    "DROP FUNCTION IF EXISTS pao_claim_key",
    "DROP FUNCTION IF EXISTS pao_key_record",
]

POSTGRES = [
    *DROP_POSTGRES,
    """
    CREATE FUNCTION pao_key_record(
      p_owner text, p_key text, p_request_hash text, OUT outcome text, OUT answer json
    ) LANGUAGE sql STABLE AS $$
      SELECT CASE WHEN k.id IS NULL THEN NULL
                  WHEN k.request_hash = p_request_hash THEN 'REPLAYED'
                  ELSE 'KEY_REUSED' END,
             k.response
      FROM (SELECT 1) AS one
      LEFT JOIN idempotency_keys AS k ON k.owner = p_owner AND k.key = p_key
    $$
    """,
    """
    CREATE FUNCTION pao_claim_key(
      p_owner text, p_key text, p_request_hash text, p_now timestamptz,
      OUT claim_id bigint, OUT outcome text, OUT answer json
    ) LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO idempotency_keys AS k (owner, key, request_hash, created_at)
        VALUES (p_owner, p_key, p_request_hash, p_now)
        ON CONFLICT (owner, key) DO NOTHING
        RETURNING k.id INTO claim_id;
      IF claim_id IS NULL THEN
        SELECT r.outcome, r.answer INTO outcome, answer
          FROM pao_key_record(p_owner, p_key, p_request_hash) AS r;
      END IF;
    END $$
    """,
]


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else []
