"""The hold from a member's wallet as a piece of PL/pgSQL, for the money recipes that are one
PostgreSQL function and begin with one (ADR 0018): the withdrawal (``pao.wallet.ddl``) and the
wallet → game transfer (``pao.games.ddl``). It is :func:`pao.ledger.service.hold_from_wallet`
statement for statement: the member's wallet and suspense account locked together in ascending
id order, the balance check, the journal entry, both balances, both postings, the hold.

:func:`with_hold` puts it into a function's text, at two marker lines: ``<hold declarations>``
(in its DECLARE section) and ``<hold from wallet>`` (where its body holds). The function has
these parameters and OUT columns: ``p_member_id``, ``p_currency``, ``p_amount``,
``p_wallet_kind``, ``p_suspense_kind``, ``p_entry_kind``, ``p_actor``, ``p_memo``,
``p_purpose``, ``p_hold_status``, ``p_now``; ``outcome``, ``hold_id``, ``wallet_id``,
``wallet_balance``, ``suspense_id``, ``suspense_balance``. A refusal sets ``outcome`` and
returns with nothing written (``ACCOUNTS_MISSING``: a first hold, whose accounts the steps
open; ``MONEY_NOT_ENOUGH``); past it the hold is written and ``v_entry`` is its entry.
"""

from __future__ import annotations

_DECLARE = """      v_account record;
      v_wallet_short boolean;
      v_suspense_short boolean;
      v_entry bigint;
"""

_HOLD_FROM_WALLET = """      FOR v_account IN
        SELECT a.id, a.kind, a.balance, a.may_go_negative FROM ledger_accounts AS a
        WHERE (a.kind = p_wallet_kind OR a.kind = p_suspense_kind)
          AND a.owner = CAST(p_member_id AS text) AND a.currency = p_currency
        ORDER BY a.id FOR UPDATE
      LOOP
        IF v_account.kind = p_wallet_kind THEN
          wallet_id := v_account.id;
          wallet_balance := v_account.balance - p_amount;
          v_wallet_short := NOT v_account.may_go_negative AND wallet_balance < 0;
        ELSE
          suspense_id := v_account.id;
          suspense_balance := v_account.balance + p_amount;
          v_suspense_short := NOT v_account.may_go_negative AND suspense_balance < 0;
        END IF;
      END LOOP;
      IF wallet_id IS NULL OR suspense_id IS NULL THEN
        outcome := 'ACCOUNTS_MISSING';
        RETURN;
      END IF;
      IF v_wallet_short OR v_suspense_short THEN
        outcome := 'MONEY_NOT_ENOUGH';
        RETURN;
      END IF;
      INSERT INTO journal_entries (kind, actor, memo, reverses_id, created_at)
        VALUES (p_entry_kind, p_actor, p_memo, NULL, p_now)
        RETURNING id INTO v_entry;
      UPDATE ledger_accounts AS a SET balance = a.balance + v.delta
        FROM (VALUES (wallet_id, -p_amount), (suspense_id, p_amount)) AS v(id, delta)
        WHERE a.id = v.id;
      INSERT INTO postings (entry_id, account_id, currency, amount)
        VALUES (v_entry, wallet_id, p_currency, -p_amount),
               (v_entry, suspense_id, p_currency, p_amount);
      INSERT INTO ledger_holds AS h (account_id, suspense_id, currency, amount, status, purpose,
                                     hold_entry_id, resolve_entry_id, created_at, resolved_at)
        VALUES (wallet_id, suspense_id, p_currency, p_amount, p_hold_status, p_purpose,
                v_entry, NULL, p_now, NULL)
        RETURNING h.id INTO hold_id;
"""

_MARKERS = {
    "      <hold declarations>\n": _DECLARE,
    "      <hold from wallet>\n": _HOLD_FROM_WALLET,
}


def with_hold(function: str) -> str:
    """``function`` (a CREATE FUNCTION's text) with the hold in place of its two markers."""
    for marker, text in _MARKERS.items():
        if function.count(marker) != 1:
            raise ValueError(f"{marker.strip()} must stand once in the function")
        function = function.replace(marker, text)
    return function
