"""The deposit credit's money statements as one PostgreSQL function (ADR 0018), applied by the
migration (and the test and bench schemas). Kept apart from :mod:`pao.ledger.ddl`, whose lists
migration 0001 applies: a function added there would be created by that old migration too.

``pao_credit_wallet`` runs the statements that :func:`pao.ledger.service.credit_wallet`
otherwise sends one by one: the operator account's shard row and the member's wallet found and
locked together in ascending id order (``FOR UPDATE``), the balance check, the journal entry,
both balances, both postings (the source's first). One round trip instead of four: the
database no longer sleeps between the statements of a deposit, and the wallet's and the
shard's row locks are held for one statement and the rest of the caller's transaction.

Every value it writes or selects by comes from the caller (kinds, owners, shards, actor, memo,
the time), so the constants stay in Python, the same as the step-by-step path uses. It refuses
with data, not with an exception, so that the transaction stays usable and the caller decides:

* ``OK``: written; ``entry_id`` is the new journal entry, ``source_*`` and ``wallet_*`` the
  accounts' ids and new balances.
* ``MONEY_NOT_ENOUGH``: an account that may not go negative would; nothing written.
* ``ACCOUNTS_MISSING``: a first movement of the wallet or of the shard row, which the
  step-by-step path opens; nothing written (what exists stays locked, as the steps lock it).

The deferred ``postings_balanced`` trigger and the ``non_negative`` check guard it as they
guard the steps. ``tests/api/test_credit_function.py`` holds it to the same rows as the steps.
"""

from __future__ import annotations

DROP_POSTGRES = ["DROP FUNCTION IF EXISTS pao_credit_wallet"]

# Dropped first: CREATE OR REPLACE cannot change a function's result columns.
POSTGRES = [
    *DROP_POSTGRES,
    """
    CREATE FUNCTION pao_credit_wallet(
      p_source_kind text, p_source_owner text, p_source_shard integer,
      p_wallet_kind text, p_wallet_owner text, p_wallet_shard integer,
      p_currency text, p_amount bigint,
      p_entry_kind text, p_actor text, p_memo text, p_now timestamptz,
      OUT outcome text, OUT entry_id bigint,
      OUT source_id bigint, OUT source_balance bigint,
      OUT wallet_id bigint, OUT wallet_balance bigint
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_account record;
      v_source_short boolean;
      v_wallet_short boolean;
    BEGIN
      FOR v_account IN
        SELECT a.id, a.kind, a.balance, a.may_go_negative FROM ledger_accounts AS a
        WHERE ((a.kind = p_source_kind AND a.owner = p_source_owner
                AND a.shard = p_source_shard)
               OR (a.kind = p_wallet_kind AND a.owner = p_wallet_owner
                   AND a.shard = p_wallet_shard))
          AND a.currency = p_currency
        ORDER BY a.id FOR UPDATE
      LOOP
        IF v_account.kind = p_wallet_kind THEN
          wallet_id := v_account.id;
          wallet_balance := v_account.balance + p_amount;
          v_wallet_short := NOT v_account.may_go_negative AND wallet_balance < 0;
        ELSE
          source_id := v_account.id;
          source_balance := v_account.balance - p_amount;
          v_source_short := NOT v_account.may_go_negative AND source_balance < 0;
        END IF;
      END LOOP;
      IF source_id IS NULL OR wallet_id IS NULL THEN
        outcome := 'ACCOUNTS_MISSING';
        RETURN;
      END IF;
      IF v_source_short OR v_wallet_short THEN
        outcome := 'MONEY_NOT_ENOUGH';
        RETURN;
      END IF;
      INSERT INTO journal_entries AS e (kind, actor, memo, reverses_id, created_at)
        VALUES (p_entry_kind, p_actor, p_memo, NULL, p_now)
        RETURNING e.id INTO entry_id;
      UPDATE ledger_accounts AS a SET balance = a.balance + v.delta
        FROM (VALUES (source_id, -p_amount), (wallet_id, p_amount)) AS v(id, delta)
        WHERE a.id = v.id;
      INSERT INTO postings (entry_id, account_id, currency, amount)
        VALUES (entry_id, source_id, p_currency, -p_amount),
               (entry_id, wallet_id, p_currency, p_amount);
      outcome := 'OK';
    END $$
    """,
]


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else []
