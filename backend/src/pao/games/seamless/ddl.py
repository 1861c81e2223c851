"""A seamless callback's money transaction as one PostgreSQL function (ADR 0033, step 1),
applied by migration 0039 (and the test and bench schemas). Nothing on SQLite.

``pao_seamless_call`` is :func:`pao.games.seamless.core.bet`, ``win`` or ``rollback``
(``p_kind``) statement for statement, in one round trip: the member read; the wallet and the
provider's clearing shard locked together in ascending id (``ledger._LOCK_SOURCE_AND_WALLET``'s
rows); the call's own id and the row it needs (a bet's rollback that came first; a win's or
rollback's bet) looked up under that lock; a replay compared column for column; the checks in
the core's order; the entry, both balances, both postings, the referenced bet marked, the
transaction row, the statement line and the round (``INSERT … ON CONFLICT … DO UPDATE``).

It answers with data, never an exception, so the transaction stays usable:

* ``outcome``: a :class:`pao.games.seamless.core.Status` value, with ``replayed``, the member's
  currency and the wallet before and after (as the core's ``Outcome``); or
* ``STEPS``: nothing written; the core's step-by-step path decides. For a bet of a member
  with limits set (the loss limit is player protection's query, ADR 0016) or self-excluded
  (the refusal's record is ``protection.hits``'), a first movement whose accounts are not
  opened yet, and a clearing shard that may not go negative and is short (the steps raise).

Every value written (kinds, statuses, labels, the shard, the memo, the time) comes from
Python, so the constants live in one place. The deferred ``postings_balanced`` trigger and the
``non_negative`` check guard it as they guard the steps; the unique ``(provider, txn_id)``
index refuses a second member's call on the same new id, as it refuses the steps'
(``core.run`` runs the call again). ``tests/api/test_seamless_function.py`` holds it to the
steps' rows and answers.
"""

from __future__ import annotations

DROP_POSTGRES = ["DROP FUNCTION IF EXISTS pao_seamless_call"]

# Dropped first: CREATE OR REPLACE cannot change a function's result columns.
POSTGRES = [
    *DROP_POSTGRES,
    """
    CREATE FUNCTION pao_seamless_call(
      p_kind text, p_provider text, p_txn_id text, p_member_id bigint, p_currency text,
      p_round_id text, p_game_code text, p_amount bigint, p_reference_id text,
      p_round_closed boolean,
      p_bet text, p_win text, p_rollback text, p_active text,
      p_wallet_kind text, p_clearing_kind text, p_shard integer,
      p_entry_kind text, p_actor text, p_memo text,
      p_statement_type text, p_statement_status text, p_wallet_label text, p_card_label text,
      p_ref_type text, p_now timestamptz,
      OUT outcome text, OUT replayed boolean, OUT member_currency text,
      OUT balance_before bigint, OUT balance_after bigint
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_status text;
      v_excluded_until timestamptz;
      v_limits_set boolean;
      v_account record;
      v_wallet bigint;
      v_clearing bigint;
      v_clearing_balance bigint;
      v_clearing_may_go_negative boolean;
      v_row seamless_transactions%ROWTYPE;
      v_own seamless_transactions%ROWTYPE;
      v_bet seamless_transactions%ROWTYPE;
      v_rollback_first boolean := false;
      v_amount bigint;
      v_source bigint;
      v_destination bigint;
      v_bets bigint := 0;
      v_wins bigint := 0;
      v_entry bigint;
      v_txn bigint;
    BEGIN
      replayed := false;
      SELECT m.status, m.currency, m.excluded_until, m.limits_set
        INTO v_status, member_currency, v_excluded_until, v_limits_set
        FROM members AS m WHERE m.id = p_member_id;
      IF NOT FOUND THEN
        outcome := 'unknown_user';
        member_currency := p_currency;
        balance_before := 0;
        balance_after := 0;
        RETURN;
      END IF;
      IF p_kind = p_bet AND (v_limits_set OR v_excluded_until > p_now) THEN
        outcome := 'STEPS';
        RETURN;
      END IF;
      FOR v_account IN
        SELECT a.id, a.kind, a.balance, a.may_go_negative FROM ledger_accounts AS a
        WHERE ((a.kind = p_clearing_kind AND a.owner = p_provider AND a.shard = p_shard)
               OR (a.kind = p_wallet_kind AND a.owner = CAST(p_member_id AS text)
                   AND a.shard = 0))
          AND a.currency = member_currency
        ORDER BY a.id FOR UPDATE
      LOOP
        IF v_account.kind = p_wallet_kind THEN
          v_wallet := v_account.id;
          balance_before := v_account.balance;
        ELSE
          v_clearing := v_account.id;
          v_clearing_balance := v_account.balance;
          v_clearing_may_go_negative := v_account.may_go_negative;
        END IF;
      END LOOP;
      IF v_wallet IS NULL OR v_clearing IS NULL THEN
        outcome := 'STEPS';
        RETURN;
      END IF;
      balance_after := balance_before;
      -- The call's own id, and by the same look-up what it needs: a bet, a rollback that
      -- came before it; a win or rollback, the bet it names (one static query each, so that
      -- each keeps its index plan).
      IF p_kind = p_bet THEN
        FOR v_row IN
          SELECT t.* FROM seamless_transactions AS t
          WHERE t.provider = p_provider
            AND (t.txn_id = p_txn_id OR (t.reference_id = p_txn_id AND t.kind = p_rollback))
        LOOP
          IF v_row.txn_id = p_txn_id THEN
            v_own := v_row;
          ELSE
            v_rollback_first := true;
          END IF;
        END LOOP;
      ELSE
        FOR v_row IN
          SELECT t.* FROM seamless_transactions AS t
          WHERE t.provider = p_provider
            AND (t.txn_id = p_txn_id OR t.txn_id = p_reference_id)
        LOOP
          IF v_row.txn_id = p_txn_id THEN
            v_own := v_row;
          END IF;
          IF v_row.txn_id = p_reference_id THEN
            v_bet := v_row;
          END IF;
        END LOOP;
      END IF;
      IF v_own.id IS NOT NULL THEN
        -- The provider's retry: the first answer again, with the balance as it stands.
        replayed := true;
        IF v_own.kind = p_kind AND v_own.member_id = p_member_id
           AND v_own.currency = p_currency AND v_own.round_id = p_round_id
           AND v_own.game_code = p_game_code
           AND v_own.reference_id IS NOT DISTINCT FROM p_reference_id
           AND (p_kind = p_rollback OR v_own.amount = p_amount) THEN
          outcome := 'ok';
        ELSE
          outcome := 'duplicate';
        END IF;
        RETURN;
      END IF;
      IF p_kind = p_bet THEN
        IF p_currency <> member_currency THEN
          outcome := 'wrong_currency';
          RETURN;
        END IF;
        IF v_status <> p_active THEN
          outcome := 'user_disabled';
          RETURN;
        END IF;
        IF v_rollback_first THEN
          outcome := 'rolled_back';
          RETURN;
        END IF;
        IF balance_before < p_amount THEN
          outcome := 'not_enough_money';
          RETURN;
        END IF;
        v_amount := p_amount;
        v_source := v_wallet;
        v_destination := v_clearing;
        v_bets := p_amount;
        balance_after := balance_before - p_amount;
      ELSE
        IF p_kind = p_win AND p_currency <> member_currency THEN
          outcome := 'wrong_currency';
          RETURN;
        END IF;
        IF p_kind = p_rollback AND p_reference_id IS NULL THEN
          outcome := 'unknown_bet';
          RETURN;
        END IF;
        IF p_kind = p_rollback AND v_bet.id IS NULL THEN
          -- A rollback before its bet: nothing moves, the late bet's refusal is remembered,
          -- and a round it ends is closed (none is opened).
          INSERT INTO seamless_transactions (provider, txn_id, kind, member_id, currency,
                                             amount, round_id, game_code, reference_id,
                                             rolled_back, settled, entry_id, created_at)
            VALUES (p_provider, p_txn_id, p_kind, p_member_id, p_currency, 0, p_round_id,
                    p_game_code, p_reference_id, false, false, NULL, p_now);
          IF p_round_closed THEN
            UPDATE seamless_rounds AS r SET closed_at = COALESCE(r.closed_at, p_now)
              WHERE r.provider = p_provider AND r.round_id = p_round_id;
          END IF;
          outcome := 'ok';
          RETURN;
        END IF;
        IF v_bet.id IS NULL OR v_bet.kind <> p_bet OR v_bet.member_id <> p_member_id THEN
          outcome := 'unknown_bet';
          RETURN;
        END IF;
        IF v_bet.rolled_back THEN
          outcome := 'rolled_back';
          RETURN;
        END IF;
        IF p_kind = p_rollback AND v_bet.settled THEN
          outcome := 'settled';
          RETURN;
        END IF;
        v_amount := CASE WHEN p_kind = p_win THEN p_amount ELSE v_bet.amount END;
        IF v_amount > 0 AND NOT v_clearing_may_go_negative
           AND v_clearing_balance < v_amount THEN
          outcome := 'STEPS';
          RETURN;
        END IF;
        v_source := v_clearing;
        v_destination := v_wallet;
        IF p_kind = p_win THEN
          v_wins := p_amount;
        ELSE
          v_bets := -v_amount;
        END IF;
        balance_after := balance_before + v_amount;
      END IF;
      IF v_amount > 0 THEN
        -- A free spin's bet or a losing round's closing win posts nothing.
        INSERT INTO journal_entries (kind, actor, memo, reverses_id, created_at)
          VALUES (p_entry_kind, p_actor, p_memo, NULL, p_now)
          RETURNING id INTO v_entry;
        UPDATE ledger_accounts AS a SET balance = a.balance + v.delta
          FROM (VALUES (v_source, -v_amount), (v_destination, v_amount)) AS v(id, delta)
          WHERE a.id = v.id;
        INSERT INTO postings (entry_id, account_id, currency, amount)
          VALUES (v_entry, v_source, member_currency, -v_amount),
                 (v_entry, v_destination, member_currency, v_amount);
      END IF;
      IF p_kind = p_win AND NOT v_bet.settled THEN
        UPDATE seamless_transactions AS t SET settled = true WHERE t.id = v_bet.id;
      ELSIF p_kind = p_rollback THEN
        UPDATE seamless_transactions AS t SET rolled_back = true WHERE t.id = v_bet.id;
      END IF;
      INSERT INTO seamless_transactions AS t (provider, txn_id, kind, member_id, currency,
                                              amount, round_id, game_code, reference_id,
                                              rolled_back, settled, entry_id, created_at)
        VALUES (p_provider, p_txn_id, p_kind, p_member_id, p_currency, v_amount, p_round_id,
                p_game_code, p_reference_id, false, false, v_entry, p_now)
        RETURNING t.id INTO v_txn;
      IF v_entry IS NOT NULL THEN
        -- A stake is money to the provider's card, a win or refund money back.
        INSERT INTO statements (member_id, statement_type, status, from_label, to_label,
                                amount, currency, ref_type, ref_id, extra, created_at)
          VALUES (p_member_id, p_statement_type, p_statement_status,
                  CASE WHEN p_kind = p_bet THEN p_wallet_label ELSE p_card_label END,
                  CASE WHEN p_kind = p_bet THEN p_card_label ELSE p_wallet_label END,
                  v_amount, p_currency, p_ref_type, CAST(v_txn AS text), NULL, p_now);
      END IF;
      INSERT INTO seamless_rounds AS r (provider, round_id, member_id, game_code, currency,
                                        bets, wins, opened_at, closed_at)
        VALUES (p_provider, p_round_id, p_member_id, p_game_code, p_currency, v_bets, v_wins,
                p_now, CASE WHEN p_round_closed THEN p_now END)
        ON CONFLICT (provider, round_id) DO UPDATE
          SET bets = r.bets + EXCLUDED.bets, wins = r.wins + EXCLUDED.wins,
              closed_at = COALESCE(r.closed_at, EXCLUDED.closed_at);
      outcome := 'ok';
    END $$
    """,
]


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else []
