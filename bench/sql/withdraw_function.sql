-- The withdrawal of withdraw.sql as one server-side function, for the round-trip experiment
-- (bench/client_pace.py; not what the app sends): the same statements, in the same order, with
-- the same locks, run inside PostgreSQL, so that a request is one round trip instead of 13.
CREATE OR REPLACE FUNCTION bench_withdraw(i integer) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
  s_member_id bigint;
  s_bank_account_no text;
  k_id bigint;
  w_id bigint;
  x_id bigint;
  e_id bigint;
  h_id bigint;
  d_id bigint;
BEGIN
  SELECT s.member_id, m.bank_account_no INTO s_member_id, s_bank_account_no
    FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id
    WHERE s.token_digest = encode(sha256(convert_to('bench-token-' || i, 'UTF8')), 'hex');
  INSERT INTO idempotency_keys (owner, key, request_hash, created_at)
    VALUES ('member:' || s_member_id, 'pgbench-' || txid_current(),
            'd2b8e1c6f3a94f0b8e6a2c5d7f1e3b9a4c6d8e0f2a4b6c8d0e2f4a6b8c0d2e4f', now())
    ON CONFLICT (owner, key) DO NOTHING RETURNING id INTO k_id;
  PERFORM id FROM promo_member_bonuses WHERE member_id = s_member_id AND status = 'ACTIVE';
  SELECT max(id) FILTER (WHERE kind = 'player_wallet'), max(id) FILTER (WHERE kind = 'withdrawals_pending')
    INTO w_id, x_id
    FROM (SELECT id, kind FROM ledger_accounts
          WHERE (kind = 'player_wallet' OR kind = 'withdrawals_pending')
            AND owner = CAST(s_member_id AS text) AND currency = 'THB'
          ORDER BY id FOR UPDATE) AS locked;
  INSERT INTO journal_entries (kind, actor, memo, reverses_id, created_at)
    VALUES ('hold:withdrawal', 'member:' || s_member_id, 'withdrawal to KBANK ' || s_bank_account_no, NULL, now())
    RETURNING id INTO e_id;
  UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.delta
    FROM (VALUES (w_id, -100), (x_id, 100)) AS v(id, delta) WHERE ledger_accounts.id = v.id;
  INSERT INTO postings (entry_id, account_id, currency, amount)
    VALUES (e_id, w_id, 'THB', -100), (e_id, x_id, 'THB', 100);
  INSERT INTO ledger_holds (account_id, suspense_id, currency, amount, status, purpose, hold_entry_id, resolve_entry_id, created_at, resolved_at)
    VALUES (w_id, x_id, 'THB', 100, 'PENDING', 'withdrawal', e_id, NULL, now(), NULL) RETURNING id INTO h_id;
  INSERT INTO withdrawals (member_id, amount, currency, status, hold_id, bank_code, bank_account_name, bank_account_no, reason, created_at, decided_at, decided_by)
    VALUES (s_member_id, 100, 'THB', 'PENDING', h_id, 'KBANK', 'BENCH MEMBER', s_bank_account_no, NULL, now(), NULL, NULL)
    RETURNING id INTO d_id;
  INSERT INTO statements (member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at)
    VALUES (s_member_id, 'withdraw', 'PENDING', 'WALLET', 'KBANK', 100, 'THB', 'withdrawal', CAST(d_id AS text), NULL, now());
  UPDATE idempotency_keys SET status_code = 200,
         response = CAST('{"code": "OK", "status": "PENDING", "withdrawalId": 1}' AS json)
    WHERE id = k_id;
  RETURN d_id;
END
$$;
