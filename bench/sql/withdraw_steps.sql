-- pgbench: the database work of one POST /api/wallet/withdraw as SQLite and a member's first
-- withdrawal send it, one statement per write, in the order the app sends it (captured with
-- SQLAlchemy's echo; see bench/README.md). withdraw.sql is what PostgreSQL gets: the hold, the
-- withdrawal and its line in one call of pao_request_withdrawal (ADR 0018). The bench passes
-- -D lo=… -D hi=… to pick the member (lo = hi: one hot wallet).
\set i random(:lo, :hi)
BEGIN;
-- identity.deps.current_login: the session and its member in one query (the token of member i
-- is 'bench-token-<i>', stored as its SHA-256)
SELECT s.id, s.member_id, s.token_digest, s.created_at, s.expires_at, s.revoked_at, s.ip, s.user_agent, m.id AS mid, m.phone, m.name, m.password_hash, m.status, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no, m.source_code, m.inviter_id, m.coin, m.agreement_accepted_at, m.created_at AS m_created_at FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id WHERE s.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex') \gset s_
-- kit.idempotency.run_idempotent: the key first (a duplicate key returns no row)
INSERT INTO idempotency_keys (owner, key, request_hash, created_at) VALUES ('member:' || CAST(:s_member_id AS text), 'pgbench-' || txid_current(), 'd2b8e1c6f3a94f0b8e6a2c5d7f1e3b9a4c6d8e0f2a4b6c8d0e2f4a6b8c0d2e4f', now()) ON CONFLICT (owner, key) DO NOTHING RETURNING id \gset k_
-- promotions.gates.check_withdrawal_allowed: an active bonus forbids the withdrawal
SELECT id FROM promo_member_bonuses WHERE member_id = :s_member_id AND status = 'ACTIVE';
-- ledger.service.hold_from_wallet: the wallet and the member's own withdrawals suspense account
-- found and locked by owner in one statement (ascending id), wrapped so that pgbench can \gset
-- both ids from the two locked rows
SELECT max(id) FILTER (WHERE kind = 'player_wallet') AS w_id, max(id) FILTER (WHERE kind = 'withdrawals_pending') AS x_id FROM (SELECT id, kind, owner, currency, shard, balance, may_go_negative, created_at FROM ledger_accounts WHERE (kind = 'player_wallet' OR kind = 'withdrawals_pending') AND owner = CAST(:s_member_id AS text) AND currency = 'THB' ORDER BY id FOR UPDATE) AS locked \gset
-- ledger.service._write_entry: entry, balances, postings
INSERT INTO journal_entries (kind, actor, memo, reverses_id, created_at) VALUES ('hold:' || 'withdrawal', 'member:' || CAST(:s_member_id AS text), 'withdrawal to KBANK ' || CAST(:s_bank_account_no AS text), NULL, now()) RETURNING id \gset e_
UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.delta FROM (VALUES (CAST(:w_id AS bigint), -100), (CAST(:x_id AS bigint), 100)) AS v(id, delta) WHERE ledger_accounts.id = v.id;
INSERT INTO postings (entry_id, account_id, currency, amount) VALUES (:e_id, :w_id, 'THB', -100), (:e_id, :x_id, 'THB', 100) RETURNING id;
-- ledger.service.place_hold, wallet.withdrawals.request_withdrawal, statements.record_statement
INSERT INTO ledger_holds (account_id, suspense_id, currency, amount, status, purpose, hold_entry_id, resolve_entry_id, created_at, resolved_at) VALUES (:w_id, :x_id, 'THB', 100, 'PENDING', 'withdrawal', :e_id, NULL, now(), NULL) RETURNING id \gset h_
INSERT INTO withdrawals (member_id, amount, currency, status, hold_id, bank_code, bank_account_name, bank_account_no, reason, created_at, decided_at, decided_by) VALUES (:s_member_id, 100, 'THB', 'PENDING', :h_id, 'KBANK', 'BENCH MEMBER', :s_bank_account_no, NULL, now(), NULL, NULL) RETURNING id \gset d_
INSERT INTO statements (member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at) VALUES (:s_member_id, 'withdraw', 'PENDING', 'WALLET', 'KBANK', 100, 'THB', 'withdrawal', CAST(:d_id AS text), NULL, now()) RETURNING id;
-- the idempotency record gets the answer
UPDATE idempotency_keys SET status_code = 200, response = CAST('{"code": "OK", "status": "PENDING", "withdrawalId": 1}' AS json) WHERE id = :k_id;
COMMIT;
