"""The wallet → game transfer's two money transactions as PostgreSQL functions (ADR 0018),
applied by migration 0019 (and the test and bench schemas).

``pao_begin_transfer_in`` is transaction 1 (:func:`pao.games.transfers.begin_in` otherwise
sends it statement by statement): the game enabled and the member's account on it (its
username is what the provider call needs), the member's wallet and game-transfers suspense
account locked together in ascending id order, the balance check, the journal entry, both
balances, both postings, the hold (:mod:`pao.ledger.hold_sql`, shared with the withdrawal's
function), the transfer row and its statement line.

* ``OK``: written; ``transfer_pk``, ``hold_id`` the new rows, ``wallet_*`` and ``suspense_*``
  the accounts' ids and new balances.
* ``NO_GAME``: no enabled game of that code, or no account of the member's on it.
* ``MONEY_NOT_ENOUGH``: the wallet is short. ``ACCOUNTS_MISSING``: the member's first
  transfer, whose suspense account the steps open. Nothing written in either case.

``pao_settle_transfer`` is transaction 2 when the provider confirmed, in either direction
(:func:`pao.games.transfers._succeed` otherwise): the transfer locked; wallet → game, the hold
locked and checked, the three accounts locked in id order, the hold posted to the member's
shard of the provider's float, the hold POSTED; game → wallet, the float's shard and the
wallet locked in id order and the amount moved from the one to the other; then the transfer
SUCCESS, the game balance the provider reported, the statement line SUCCESS, each status
change recorded in ``status_changes`` as :func:`pao.kit.states.transition_now` does. It
answers with the transfer's row as it leaves it (the ``t_*`` columns) and:

* ``OK``: settled. ``SETTLED``: no longer PENDING (someone settled it first); nothing written.
* ``STEPS``: the float's shard row (or the wallet) is not open yet: the caller settles it by
  the steps, the transfer already locked. Nothing written.
* ``NOT_FOUND``: no such transfer.

Leg two of a game → game transfer is not its business: the caller starts it, in the same
transaction, with ``pao_begin_transfer_in``.

A hold or a statement line in a state the transition tables forbid raises, as
``check_transition`` does. Every value written (kinds, statuses, labels, the shard count, the
time) comes from Python; the deferred ``postings_balanced`` trigger and the ``non_negative``
check guard both functions as they guard the steps. ``tests/api/test_transfer_functions.py``
holds them to the steps' rows.
"""

from __future__ import annotations

from pao.ledger import hold_sql

# Dropped first: CREATE OR REPLACE cannot change a function's result columns.
DROP_POSTGRES = [
    "DROP FUNCTION IF EXISTS pao_transfer_begin",
    "DROP FUNCTION IF EXISTS pao_begin_transfer_in",
    "DROP FUNCTION IF EXISTS pao_settle_transfer",
]

POSTGRES = [
    *DROP_POSTGRES,
    hold_sql.with_hold(
        """
    CREATE FUNCTION pao_begin_transfer_in(
      p_member_id bigint, p_currency text, p_code text, p_amount bigint,
      p_wallet_kind text, p_suspense_kind text,
      p_entry_kind text, p_actor text, p_memo text, p_purpose text, p_hold_status text,
      p_transfer_id text, p_direction text, p_status text, p_parent_id bigint,
      p_from_label text, p_next_check_at timestamptz,
      p_statement_type text, p_statement_status text, p_ref_type text,
      p_now timestamptz,
      OUT outcome text, OUT username text, OUT transfer_pk bigint, OUT hold_id bigint,
      OUT wallet_id bigint, OUT wallet_balance bigint,
      OUT suspense_id bigint, OUT suspense_balance bigint
    ) LANGUAGE plpgsql AS $$
    DECLARE
      <hold declarations>
    BEGIN
      SELECT ga.username INTO username FROM games AS g
        JOIN game_accounts AS ga ON ga.game_code = g.code AND ga.member_id = p_member_id
        WHERE g.code = p_code AND g.enabled;
      IF NOT FOUND THEN
        outcome := 'NO_GAME';
        RETURN;
      END IF;
      <hold from wallet>
      INSERT INTO game_transfers AS t (transfer_id, member_id, game_code, direction, amount,
                                       currency, status, hold_id, then_to, parent_id,
                                       from_label, to_label, attempts, next_check_at, error,
                                       created_at, settled_at)
        VALUES (p_transfer_id, p_member_id, p_code, p_direction, p_amount, p_currency, p_status,
                hold_id, NULL, p_parent_id, p_from_label, p_code, 0, p_next_check_at, NULL,
                p_now, NULL)
        RETURNING t.id INTO transfer_pk;
      INSERT INTO statements (member_id, statement_type, status, from_label, to_label, amount,
                              currency, ref_type, ref_id, extra, created_at)
        VALUES (p_member_id, p_statement_type, p_statement_status, p_from_label, p_code,
                p_amount, p_currency, p_ref_type, CAST(transfer_pk AS text), NULL, p_now);
      outcome := 'OK';
    END $$
    """
    ),
    """
    CREATE FUNCTION pao_settle_transfer(
      p_pk bigint, p_direction_in text, p_pending text, p_success text,
      p_float_kind text, p_shards integer, p_wallet_kind text,
      p_in_entry_kind text, p_out_entry_kind text, p_actor text, p_memo_prefix text,
      p_hold_pending text, p_hold_posted text,
      p_hold_entity text, p_transfer_entity text, p_statement_entity text,
      p_ref_type text, p_statement_pending text, p_statement_success text,
      p_statement_actor text, p_balance bigint, p_now timestamptz,
      OUT outcome text,
      OUT t_id bigint, OUT t_transfer_id text, OUT t_member_id bigint, OUT t_game_code text,
      OUT t_direction text, OUT t_amount bigint, OUT t_currency text, OUT t_status text,
      OUT t_hold_id bigint, OUT t_then_to text, OUT t_parent_id bigint, OUT t_from_label text,
      OUT t_to_label text, OUT t_attempts integer, OUT t_next_check_at timestamptz,
      OUT t_error text, OUT t_created_at timestamptz, OUT t_settled_at timestamptz
    ) LANGUAGE plpgsql AS $$
    DECLARE
      transfer game_transfers%ROWTYPE;
      v_hold ledger_holds%ROWTYPE;
      v_float bigint;
      v_wallet bigint;
      v_source bigint;
      v_destination bigint;
      v_amount bigint;
      v_source_balance bigint;
      v_source_may_go_negative boolean;
      v_entry_kind text;
      v_entry bigint;
      v_memo text;
      v_line bigint;
      v_line_status text;
    BEGIN
      SELECT * INTO transfer FROM game_transfers AS t WHERE t.id = p_pk FOR UPDATE;
      IF NOT FOUND THEN
        outcome := 'NOT_FOUND';
        RETURN;
      END IF;
      <<settle>>
      BEGIN
        IF transfer.status <> p_pending THEN
          outcome := 'SETTLED';
          EXIT settle;
        END IF;
        -- The member's shard row of the float (pao.ledger.models.shard_of: member id modulo
        -- the shard count).
        SELECT a.id INTO v_float FROM ledger_accounts AS a
          WHERE a.kind = p_float_kind AND a.owner = transfer.game_code
            AND a.currency = transfer.currency
            AND a.shard = transfer.member_id % p_shards;
        v_memo := p_memo_prefix || transfer.transfer_id;
        IF transfer.direction = p_direction_in THEN
          IF v_float IS NULL THEN
            outcome := 'STEPS';
            EXIT settle;
          END IF;
          -- pao.ledger.service.post_hold: the hold locked and checked, then its origin too,
          -- with the accounts the entry moves, in ascending id (a concurrent hold of the
          -- same member locks the same rows in the same order).
          SELECT * INTO v_hold FROM ledger_holds AS h WHERE h.id = transfer.hold_id FOR UPDATE;
          IF NOT FOUND OR v_hold.status <> p_hold_pending THEN
            RAISE EXCEPTION 'illegal transition % → %', v_hold.status, p_hold_posted;
          END IF;
          v_source := v_hold.suspense_id;
          v_destination := v_float;
          v_amount := v_hold.amount;
          v_entry_kind := p_in_entry_kind;
          PERFORM 1 FROM ledger_accounts AS a
            WHERE a.id IN (v_hold.account_id, v_hold.suspense_id, v_float)
            ORDER BY a.id FOR UPDATE;
        ELSE
          -- Game → wallet: the float's shard → the wallet (pao.ledger.service.transfer), both
          -- locked in ascending id.
          SELECT a.id INTO v_wallet FROM ledger_accounts AS a
            WHERE a.kind = p_wallet_kind AND a.owner = CAST(transfer.member_id AS text)
              AND a.currency = transfer.currency AND a.shard = 0;
          IF v_float IS NULL OR v_wallet IS NULL THEN
            outcome := 'STEPS';
            EXIT settle;
          END IF;
          v_source := v_float;
          v_destination := v_wallet;
          v_amount := transfer.amount;
          v_entry_kind := p_out_entry_kind;
          PERFORM 1 FROM ledger_accounts AS a
            WHERE a.id IN (v_float, v_wallet) ORDER BY a.id FOR UPDATE;
        END IF;
        -- The balance check of pao.ledger.service._write_entry, on the rows now locked.
        SELECT a.balance, a.may_go_negative INTO v_source_balance, v_source_may_go_negative
          FROM ledger_accounts AS a WHERE a.id = v_source;
        IF NOT v_source_may_go_negative AND v_source_balance < v_amount THEN
          outcome := 'MONEY_NOT_ENOUGH';
          EXIT settle;
        END IF;
        INSERT INTO journal_entries (kind, actor, memo, reverses_id, created_at)
          VALUES (v_entry_kind, p_actor, v_memo, NULL, p_now)
          RETURNING id INTO v_entry;
        UPDATE ledger_accounts AS a SET balance = a.balance + v.delta
          FROM (VALUES (v_source, -v_amount), (v_destination, v_amount))
            AS v(id, delta)
          WHERE a.id = v.id;
        INSERT INTO postings (entry_id, account_id, currency, amount)
          VALUES (v_entry, v_source, transfer.currency, -v_amount),
                 (v_entry, v_destination, transfer.currency, v_amount);
        IF transfer.direction = p_direction_in THEN
          INSERT INTO status_changes (entity, entity_id, from_status, to_status, actor, reason,
                                      created_at)
            VALUES (p_hold_entity, v_hold.id, v_hold.status, p_hold_posted, p_actor, v_memo,
                    p_now);
          UPDATE ledger_holds AS h
            SET status = p_hold_posted, resolve_entry_id = v_entry, resolved_at = p_now
            WHERE h.id = v_hold.id;
        END IF;
        INSERT INTO status_changes (entity, entity_id, from_status, to_status, actor, reason,
                                    created_at)
          VALUES (p_transfer_entity, transfer.id, transfer.status, p_success, p_actor, NULL,
                  p_now);
        UPDATE game_transfers AS t SET status = p_success, settled_at = p_now
          WHERE t.id = transfer.id;
        transfer.status := p_success;
        transfer.settled_at := p_now;
        IF p_balance IS NOT NULL THEN
          UPDATE game_accounts AS ga SET last_balance = p_balance, balance_at = p_now
            WHERE ga.member_id = transfer.member_id AND ga.game_code = transfer.game_code;
        END IF;
        SELECT s.id, s.status INTO v_line, v_line_status FROM statements AS s
          WHERE s.ref_type = p_ref_type AND s.ref_id = CAST(transfer.id AS text) FOR UPDATE;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'no statement line of % %', p_ref_type, transfer.id;
        END IF;
        IF v_line_status = p_statement_pending THEN
          INSERT INTO status_changes (entity, entity_id, from_status, to_status, actor, reason,
                                      created_at)
            VALUES (p_statement_entity, v_line, v_line_status, p_statement_success,
                    p_statement_actor, NULL, p_now);
          UPDATE statements AS s SET status = p_statement_success WHERE s.id = v_line;
        ELSIF v_line_status <> p_statement_success THEN
          RAISE EXCEPTION 'illegal transition % → %', v_line_status, p_statement_success;
        END IF;
        outcome := 'OK';
      END;
      -- The row as this transaction leaves it (OUT columns, not the table's row type: a
      -- function whose signature names a table's type would keep the table from being
      -- dropped).
      t_id := transfer.id; t_transfer_id := transfer.transfer_id;
      t_member_id := transfer.member_id; t_game_code := transfer.game_code;
      t_direction := transfer.direction; t_amount := transfer.amount;
      t_currency := transfer.currency; t_status := transfer.status;
      t_hold_id := transfer.hold_id; t_then_to := transfer.then_to;
      t_parent_id := transfer.parent_id; t_from_label := transfer.from_label;
      t_to_label := transfer.to_label; t_attempts := transfer.attempts;
      t_next_check_at := transfer.next_check_at; t_error := transfer.error;
      t_created_at := transfer.created_at; t_settled_at := transfer.settled_at;
    END $$
    """,
]


# A member's whole wallet → game or game → wallet request up to the provider call, run alone in
# autocommit (pao.games.transfer_statement, ADR 0039): the login, player protection's flags
# when money goes to play (a member with limits set or excluded takes the steps, which record
# the refusal), the key's replay, the provider's state and the gate (arguments), the key's
# claim, the transfer begun (pao_begin_transfer_in's hold for wallet → game; for game → wallet
# the game's account, the transfer row and its statement line, as transfers.begin_out writes
# them) and the key's answer. A refusal returns before anything is written, but those of the
# transfer's beginning, which delete the claim they follow. The login and the key's record are
# pao.identity.ddl's and pao.kit.idempotency_ddl's functions, as for the withdrawal.
POSTGRES.append(
    """
    CREATE FUNCTION pao_transfer_begin(
      p_digest text, p_now timestamptz, p_active_status text, p_owner_prefix text,
      p_key text, p_request_hash text, p_unavailable boolean, p_gate_refuses boolean,
      p_answer jsonb, p_stake boolean, p_to_label text,
      p_code text, p_amount bigint, p_wallet_kind text, p_suspense_kind text,
      p_entry_kind text, p_memo text, p_purpose text, p_hold_status text, p_transfer_id text,
      p_direction text, p_status text, p_from_label text, p_next_check_at timestamptz,
      p_statement_type text, p_statement_status text, p_ref_type text,
      OUT outcome text, OUT username text, OUT transfer_pk bigint, OUT answer json
    ) LANGUAGE plpgsql AS $$
    DECLARE
      v_me record;
      v_owner text;
      v_key record;
      v_claim bigint;
      v_begun record;
    BEGIN
      SELECT * INTO v_me FROM pao_member_of_token(p_digest, p_now, p_active_status);
      IF v_me.id IS NULL THEN
        outcome := 'UNAUTHORIZED';
        RETURN;
      END IF;
      IF p_stake AND (v_me.limits_set OR v_me.excluded_until > p_now) THEN
        outcome := 'STEPS';
        RETURN;
      END IF;
      v_owner := p_owner_prefix || CAST(v_me.id AS text);
      IF p_key IS NOT NULL THEN
        SELECT * INTO v_key FROM pao_key_record(v_owner, p_key, p_request_hash);
        IF v_key.outcome IS NOT NULL THEN
          outcome := v_key.outcome;
          answer := v_key.answer;
          RETURN;
        END IF;
      END IF;
      IF p_unavailable THEN
        outcome := 'UNAVAILABLE';
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
      IF p_stake THEN
        SELECT * INTO v_begun FROM pao_begin_transfer_in(
          v_me.id, v_me.currency, p_code, p_amount, p_wallet_kind, p_suspense_kind,
          p_entry_kind, v_owner, p_memo, p_purpose, p_hold_status, p_transfer_id, p_direction,
          p_status, NULL, p_from_label, p_next_check_at, p_statement_type, p_statement_status,
          p_ref_type, p_now);
        IF v_begun.outcome <> 'OK' THEN
          DELETE FROM idempotency_keys AS k WHERE k.id = v_claim;
          outcome := v_begun.outcome;
          RETURN;
        END IF;
        username := v_begun.username;
        transfer_pk := v_begun.transfer_pk;
      ELSE
        -- No money moves before the provider confirms: the intent and its statement line.
        SELECT ga.username INTO username FROM games AS g
          JOIN game_accounts AS ga ON ga.game_code = g.code AND ga.member_id = v_me.id
          WHERE g.code = p_code AND g.enabled;
        IF NOT FOUND THEN
          DELETE FROM idempotency_keys AS k WHERE k.id = v_claim;
          outcome := 'NO_GAME';
          RETURN;
        END IF;
        INSERT INTO game_transfers AS t (transfer_id, member_id, game_code, direction, amount,
                                         currency, status, hold_id, then_to, parent_id,
                                         from_label, to_label, attempts, next_check_at, error,
                                         created_at, settled_at)
          VALUES (p_transfer_id, v_me.id, p_code, p_direction, p_amount, v_me.currency,
                  p_status, NULL, NULL, NULL, p_from_label, p_to_label, 0, p_next_check_at,
                  NULL, p_now, NULL)
          RETURNING t.id INTO transfer_pk;
        INSERT INTO statements (member_id, statement_type, status, from_label, to_label,
                                amount, currency, ref_type, ref_id, extra, created_at)
          VALUES (v_me.id, p_statement_type, p_statement_status, p_from_label, p_to_label,
                  p_amount, v_me.currency, p_ref_type, CAST(transfer_pk AS text), NULL, p_now);
      END IF;
      answer := CAST(jsonb_set(p_answer, ARRAY['transfers', '0', 'transferId'],
                               to_jsonb(CAST(transfer_pk AS text))) AS json);
      IF v_claim IS NOT NULL THEN
        UPDATE idempotency_keys AS k SET status_code = 200, response = answer
          WHERE k.id = v_claim;
      END IF;
      outcome := 'OK';
    END $$
    """
)


def statements_for(dialect: str) -> list[str]:
    return POSTGRES if dialect == "postgresql" else []
