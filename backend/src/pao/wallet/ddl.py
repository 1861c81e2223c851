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

The hold itself is :mod:`pao.ledger.hold_sql`'s, shared with the transfer's function. The
deferred ``postings_balanced`` trigger and the ``non_negative`` check guard it as they guard
the steps. ``tests/api/test_withdrawal_function.py`` holds it to the same rows as the
steps.
"""

from __future__ import annotations

from pao.ledger import hold_sql

DROP_POSTGRES = ["DROP FUNCTION IF EXISTS pao_request_withdrawal"]

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
]


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else []
