-- pgbench: the database work of one POST /api/wallet/withdraw, statement for statement, in the
-- order the app sends it (captured with SQLAlchemy's echo; see bench/README.md). The bench
-- passes -D lo=… -D hi=… to pick the member (lo = hi: one hot wallet).
\set i random(:lo, :hi)
BEGIN;
-- identity.deps.current_login: the session and its member in one query (the token of member i
-- is 'bench-token-<i>', stored as its SHA-256)
SELECT s.id, s.member_id, s.token_digest, s.created_at, s.expires_at, s.revoked_at, s.ip, s.user_agent, m.id AS mid, m.phone, m.name, m.password_hash, m.status, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no, m.source_code, m.inviter_id, m.coin, m.agreement_accepted_at, m.created_at AS m_created_at FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id WHERE s.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex') \gset s_
-- kit.idempotency.run_idempotent: the key first (a duplicate key returns no row)
INSERT INTO idempotency_keys (owner, key, request_hash, created_at) VALUES ('member:' || CAST(:s_member_id AS text), 'pgbench-' || txid_current(), 'd2b8e1c6f3a94f0b8e6a2c5d7f1e3b9a4c6d8e0f2a4b6c8d0e2f4a6b8c0d2e4f', now()) ON CONFLICT (owner, key) DO NOTHING RETURNING id \gset k_
-- promotions.gates.check_withdrawal_allowed: an active bonus forbids the withdrawal
SELECT id FROM promo_member_bonuses WHERE member_id = :s_member_id AND status = 'ACTIVE';
-- wallet.withdrawal_function.place: the hold, the withdrawal and its statement line in one
-- statement (pao.wallet.ddl, ADR 0018; withdraw_steps.sql has them one by one, as SQLite and a
-- member's first withdrawal send them)
SELECT outcome, withdrawal_id, hold_id, wallet_id, wallet_balance, suspense_id, suspense_balance FROM pao_request_withdrawal(CAST(:s_member_id AS bigint), 'THB', 100, 'player_wallet', 'withdrawals_pending', 'hold:' || 'withdrawal', 'member:' || CAST(CAST(:s_member_id AS bigint) AS text), 'withdrawal to KBANK ' || CAST(:s_bank_account_no AS text), 'withdrawal', 'PENDING', 'PENDING', 'KBANK', 'BENCH MEMBER', CAST(:s_bank_account_no AS text), 'withdraw', 'PENDING', 'WALLET', 'withdrawal', now());
-- the idempotency record gets the answer
UPDATE idempotency_keys SET status_code = 200, response = CAST('{"code": "OK", "status": "PENDING", "withdrawalId": 1}' AS json) WHERE id = :k_id;
COMMIT;
