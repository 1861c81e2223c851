"""The withdrawal's money statements as one PostgreSQL function (ADR 0018), applied by the
migration (and the test and bench schemas).

``pao_request_withdrawal`` runs the statements that
:func:`pao.wallet.withdrawals.request_withdrawal` otherwise sends one by one
(``pao.ledger.service.hold_from_wallet``, the withdrawal's row, its statement line): the
member's wallet and suspense account locked together in ascending id order, the balance
check, the journal entry, both balances, both postings, the hold, the withdrawal and its
statement line. One round trip instead of seven: the database no longer sleeps between the
statements of a request, and the wallet's row lock is held for one statement and the commit.

Every value it writes comes from the caller (kinds, statuses, labels, the time), so the
constants stay in Python, the same as the step-by-step path writes. It refuses with data, not
with an exception, so that the transaction stays usable and the caller decides:

* ``OK``: written; ``withdrawal_id`` and ``hold_id`` are the new rows, ``wallet_*`` and
  ``suspense_*`` the accounts' ids and new balances.
* ``MONEY_NOT_ENOUGH``: the wallet is short; nothing written.
* ``ACCOUNTS_MISSING``: the member's first withdrawal, whose accounts are opened by the
  step-by-step path; nothing written (what exists stays locked, as the steps would lock it).

``pao_withdraw`` is the member's whole request around it, run alone in autocommit
(:mod:`pao.wallet.withdrawal_statement`, ADR 0039): the login and its member, the key's replay,
the limits, the bank account, the gate (an argument: promotions' expression), the key's claim,
``pao_request_withdrawal``, and the key's answer. Its refusals are data too: all but two return
before anything is written, and those two (the hold's) delete the claim they follow. The login
and the key's record are functions of their own (:mod:`pao.identity.ddl`,
:mod:`pao.kit.idempotency_ddl`), shared with the transfer's (:mod:`pao.games.ddl`).

The hold itself is :mod:`pao.ledger.hold_sql`'s, shared with the transfer's function. The
deferred ``postings_balanced`` trigger and the ``non_negative`` check guard it as they guard
the steps. ``tests/api/test_withdrawal_function.py`` holds it to the same rows as the
steps, ``tests/api/test_withdrawal_statement.py`` the whole request.
"""

from __future__ import annotations

from pao.ledger import hold_sql

DROP_POSTGRES = [
    "DROP FUNCTION IF EXISTS pao_withdraw",
    "DROP FUNCTION IF EXISTS pao_request_withdrawal",
]

# Dropped first: CREATE OR REPLACE cannot change a function's result columns.
POSTGRES = [
    *DROP_POSTGRES,
    hold_sql.with_hold(
        """
    CREATE FUNCTION pao_request_withdrawal(
      p_member_id bigint, p_currency text, p_amount bigint,
      p_wallet_kind text, p_suspense_kind text,
      p_entry_kind text, p_actor text, p_memo text,
      p_purpose text, p_hold_status text,
      p_status text, p_bank_code text, p_bank_account_name text, p_bank_account_no text,
      p_statement_type text, p_statement_status text, p_from_label text, p_ref_type text,
      p_now timestamptz,
      OUT outcome text, OUT withdrawal_id bigint, OUT hold_id bigint,
      OUT wallet_id bigint, OUT wallet_balance bigint,
      OUT suspense_id bigint, OUT suspense_balance bigint
    ) LANGUAGE plpgsql AS $$
    DECLARE
      <hold declarations>
    BEGIN
      <hold from wallet>
      INSERT INTO withdrawals AS w (member_id, amount, currency, status, hold_id, bank_code,
                                    bank_account_name, bank_account_no, created_at)
        VALUES (p_member_id, p_amount, p_currency, p_status, hold_id, p_bank_code,
                p_bank_account_name, p_bank_account_no, p_now)
        RETURNING w.id INTO withdrawal_id;
      INSERT INTO statements (member_id, statement_type, status, from_label, to_label, amount,
                              currency, ref_type, ref_id, extra, created_at)
        VALUES (p_member_id, p_statement_type, p_statement_status, p_from_label, p_bank_code,
                p_amount, p_currency, p_ref_type, CAST(withdrawal_id AS text), NULL, p_now);
      outcome := 'OK';
    END $$
    """
    ),
    # The whole request around it (pao.wallet.withdrawal_statement): run alone, in autocommit,
    # so whatever it writes is exactly what it answers OK. A refusal returns before the key is
    # claimed, except the two the hold finds after it, which take the claim back.
    """
    CREATE FUNCTION pao_withdraw(
      p_digest text, p_now timestamptz, p_active_status text, p_owner_prefix text,
      p_key text, p_request_hash text, p_amount bigint,
      p_currencies text[], p_minimums bigint[], p_maximums bigint[], p_gate_refuses boolean,
      p_answer jsonb, p_answer_id_field text, p_memo_prefix text,
      p_wallet_kind text, p_suspense_kind text, p_entry_kind text, p_purpose text,
      p_hold_status text, p_status text, p_statement_type text, p_statement_status text,
      p_from_label text, p_ref_type text,
      OUT outcome text, OUT member_id bigint, OUT currency text, OUT withdrawal_id bigint,
      OUT answer json
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_me record;
      v_owner text;
      v_key record;
      v_slot integer;
      v_claim bigint;
      v_placed record;
    BEGIN
      SELECT * INTO v_me FROM pao_member_of_token(p_digest, p_now, p_active_status);
      IF v_me.id IS NULL THEN
        outcome := 'UNAUTHORIZED';
        RETURN;
      END IF;
      member_id := v_me.id;
      currency := v_me.currency;
      v_owner := p_owner_prefix || CAST(v_me.id AS text);
      -- A retry is answered from its record before anything is checked: the limits may have
      -- moved and the wallet emptied since the first request (money rule 5).
      IF p_key IS NOT NULL THEN
        SELECT * INTO v_key FROM pao_key_record(v_owner, p_key, p_request_hash);
        IF v_key.outcome IS NOT NULL THEN
          outcome := v_key.outcome;
          answer := v_key.answer;
          RETURN;
        END IF;
      END IF;
      IF p_amount <= 0 THEN
        outcome := 'AMOUNT_NOT_POSITIVE';
        RETURN;
      END IF;
      v_slot := array_position(p_currencies, v_me.currency);
      IF p_minimums[v_slot] IS NULL OR p_maximums[v_slot] IS NULL THEN
        outcome := 'CURRENCY_NOT_OFFERED';
        RETURN;
      END IF;
      IF p_amount < p_minimums[v_slot] THEN
        outcome := 'BELOW_MINIMUM';
        RETURN;
      END IF;
      IF p_amount > p_maximums[v_slot] THEN
        outcome := 'ABOVE_MAXIMUM';
        RETURN;
      END IF;
      IF coalesce(v_me.bank_code, '') = '' OR coalesce(v_me.bank_account_no, '') = '' THEN
        outcome := 'NO_BANK_ACCOUNT';
        RETURN;
      END IF;
      IF p_gate_refuses THEN
        outcome := 'GATE_REFUSED';
        RETURN;
      END IF;
      IF p_key IS NOT NULL THEN
        -- A duplicate in flight holds this key: answered from its record if it committed.
        SELECT * INTO v_key FROM pao_claim_key(v_owner, p_key, p_request_hash, p_now);
        IF v_key.claim_id IS NULL THEN
          outcome := v_key.outcome;
          answer := v_key.answer;
          RETURN;
        END IF;
        v_claim := v_key.claim_id;
      END IF;
      SELECT * INTO v_placed FROM pao_request_withdrawal(
        v_me.id, v_me.currency, p_amount, p_wallet_kind, p_suspense_kind, p_entry_kind,
        v_owner, p_memo_prefix || v_me.bank_code || ' ' || v_me.bank_account_no, p_purpose,
        p_hold_status, p_status, v_me.bank_code, v_me.bank_account_name, v_me.bank_account_no,
        p_statement_type, p_statement_status, p_from_label, p_ref_type, p_now);
      IF v_placed.outcome <> 'OK' THEN
        -- Refused with nothing written: the key goes back, as a rollback would take it back,
        -- so that a retry is evaluated afresh.
        DELETE FROM idempotency_keys AS k WHERE k.id = v_claim;
        outcome := v_placed.outcome;
        RETURN;
      END IF;
      withdrawal_id := v_placed.withdrawal_id;
      answer := CAST(jsonb_set(p_answer, ARRAY[p_answer_id_field], to_jsonb(withdrawal_id))
                     AS json);
      IF v_claim IS NOT NULL THEN
        UPDATE idempotency_keys AS k SET status_code = 200, response = answer
          WHERE k.id = v_claim;
      END IF;
      outcome := 'OK';
    END $$
    """,
]


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else []
