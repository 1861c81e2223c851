-- pgbench: the database work of one POST /api/wallet/transfer, wallet → game (1 THB to JOKER,
-- one provider whose float all members share), statement for statement and transaction for
-- transaction, in the order the app sends it (bench/sqlcheck.py compares them). The provider
-- answers at once in the bench (bench.app.InstantProvider), so nothing runs between the
-- transactions but the app's own code. -D lo=… -D hi=… pick the member.
\set i random(:lo, :hi)
-- the request's own transaction: identity.deps.current_login, then ended (games.router._end_read)
BEGIN;
SELECT s.id, s.member_id, s.token_digest, s.created_at, s.expires_at, s.revoked_at, s.ip, s.user_agent, m.id AS mid, m.phone, m.name, m.password_hash, m.status, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no, m.source_code, m.inviter_id, m.coin, m.agreement_accepted_at, m.created_at AS m_created_at FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id WHERE s.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex') \gset s_
COMMIT;
-- transaction 1 (games.transfers._start under kit.idempotency.run_idempotent): the key,
-- the game and the member's account on it, the hold, the transfer row, its statement line, the
-- key's answer (the provider call is planned from what this transaction read:
-- games.transfers._plan_of). The provider's availability comes from the process's cache
-- (games.availability, ADR 0013 amendment: re-read at most once a second per process, not
-- per request), so no statement reads it here.
BEGIN;
INSERT INTO idempotency_keys (owner, key, request_hash, created_at) VALUES ('member:' || CAST(:s_member_id AS text), 'pgbench-' || txid_current(), 'ee97b2663777f48b8b1772685451f514dc3dd81edc42efdc862c2f9ac0f6667e', now()) ON CONFLICT (owner, key) DO NOTHING RETURNING id \gset k_
SELECT code, name, category, provider, ft_wallet_slot, logo, background, web, android, ios, sort_order, enabled FROM games WHERE code = 'JOKER';
SELECT id, member_id, game_code, username, password, last_balance, balance_at, created_at FROM game_accounts WHERE member_id = :s_member_id AND game_code = 'JOKER';
-- ledger.service.hold_from_wallet: the wallet and the member's game-transfers suspense account,
-- found and locked by owner in one statement
SELECT max(id) FILTER (WHERE kind = 'player_wallet') AS w_id, max(id) FILTER (WHERE kind = 'game_transfers_pending') AS x_id FROM (SELECT id, kind, owner, currency, shard, balance, may_go_negative, created_at FROM ledger_accounts WHERE (kind = 'player_wallet' OR kind = 'game_transfers_pending') AND owner = CAST(:s_member_id AS text) AND currency = 'THB' ORDER BY id FOR UPDATE) AS locked \gset
INSERT INTO journal_entries (kind, actor, memo, reverses_id, created_at) VALUES ('hold:' || 'game', 'member:' || CAST(:s_member_id AS text), 'transfer to JOKER', NULL, now()) RETURNING id, kind, actor, memo, reverses_id, created_at \gset e_
UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.delta FROM (VALUES (CAST(:w_id AS bigint), -100), (CAST(:x_id AS bigint), 100)) AS v(id, delta) WHERE ledger_accounts.id = v.id;
INSERT INTO postings (entry_id, account_id, currency, amount) VALUES (:e_id, :w_id, 'THB', -100), (:e_id, :x_id, 'THB', 100) RETURNING id;
INSERT INTO ledger_holds (account_id, suspense_id, currency, amount, status, purpose, hold_entry_id, created_at) VALUES (:w_id, :x_id, 'THB', 100, 'PENDING', 'game', :e_id, now()) RETURNING id, account_id, suspense_id, currency, amount, status, purpose, hold_entry_id, resolve_entry_id, created_at, resolved_at \gset h_
INSERT INTO game_transfers (transfer_id, member_id, game_code, direction, amount, currency, status, hold_id, from_label, to_label, attempts, next_check_at, created_at) VALUES ('pgbench-' || txid_current(), :s_member_id, 'JOKER', 'in', 100, 'THB', 'PENDING', :h_id, 'WALLET', 'JOKER', 0, now() + interval '30 seconds', now()) RETURNING id, transfer_id, member_id, game_code, direction, amount, currency, status, hold_id, then_to, parent_id, from_label, to_label, attempts, next_check_at, error, created_at, settled_at \gset t_
INSERT INTO statements (member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at) VALUES (:s_member_id, 'transfer', 'PENDING', 'WALLET', 'JOKER', 100, 'THB', 'game_transfer', CAST(:t_id AS text), NULL, now()) RETURNING id, member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at \gset st_
UPDATE idempotency_keys SET status_code = 200, response = CAST('{"code": "PENDING", "transfers": [{"transferId": "1", "from": "WALLET", "to": "JOKER", "amount": 1.0, "status": "PENDING"}]}' AS json) WHERE id = :k_id;
COMMIT;
-- (the provider confirms at once)
-- transaction 2, games.transfers.settle: the transfer locked, the hold posted to the member's
-- shard of JOKER's float (ledger.service.post_hold: the hold locked, then the three accounts in
-- id order, the entry, then the hold's status change and its one UPDATE), SUCCESS, the
-- statement line SUCCESS (kit.states.transition_now: each status change is an INSERT and one
-- UPDATE by primary key, prebuilt, on the executor). The answer is built from the transfer as
-- this transaction leaves it (games.transfers._finish).
BEGIN;
SELECT id, transfer_id, member_id, game_code, direction, amount, currency, status, hold_id, then_to, parent_id, from_label, to_label, attempts, next_check_at, error, created_at, settled_at FROM game_transfers WHERE id = :t_id FOR UPDATE;
SELECT id AS f_id, kind, owner, currency, shard, balance, may_go_negative, created_at FROM ledger_accounts WHERE kind = 'provider_float' AND owner = 'JOKER' AND currency = 'THB' AND shard = CAST(:s_member_id AS int) % 32 \gset
SELECT id, account_id, suspense_id, currency, amount, status, purpose, hold_entry_id, resolve_entry_id, created_at, resolved_at FROM ledger_holds WHERE id = :h_id FOR UPDATE;
SELECT id, kind, owner, currency, shard, balance, may_go_negative, created_at FROM ledger_accounts WHERE id IN (:w_id, :x_id, :f_id) ORDER BY id FOR UPDATE;
INSERT INTO journal_entries (kind, actor, memo, reverses_id, created_at) VALUES ('post:' || 'game', 'games', 'game transfer pgbench', NULL, now()) RETURNING id, kind, actor, memo, reverses_id, created_at \gset p_
UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.delta FROM (VALUES (CAST(:x_id AS bigint), -100), (CAST(:f_id AS bigint), 100)) AS v(id, delta) WHERE ledger_accounts.id = v.id;
INSERT INTO postings (entry_id, account_id, currency, amount) VALUES (:p_id, :x_id, 'THB', -100), (:p_id, :f_id, 'THB', 100) RETURNING id;
INSERT INTO status_changes (entity, entity_id, from_status, to_status, actor, reason, created_at) VALUES ('ledger_holds', :h_id, 'PENDING', 'POSTED', 'games', 'game transfer pgbench', now()) RETURNING id, entity, entity_id, from_status, to_status, actor, reason, created_at;
UPDATE ledger_holds SET status = 'POSTED', resolve_entry_id = :p_id, resolved_at = now() WHERE id = :h_id;
INSERT INTO status_changes (entity, entity_id, from_status, to_status, actor, reason, created_at) VALUES ('game_transfers', :t_id, 'PENDING', 'SUCCESS', 'games', NULL, now()) RETURNING id, entity, entity_id, from_status, to_status, actor, reason, created_at;
UPDATE game_transfers SET status = 'SUCCESS', settled_at = now() WHERE id = :t_id;
SELECT id, member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at FROM statements WHERE ref_type = 'game_transfer' AND ref_id = CAST(:t_id AS text) FOR UPDATE;
INSERT INTO status_changes (entity, entity_id, from_status, to_status, actor, reason, created_at) VALUES ('statements', :st_id, 'PENDING', 'SUCCESS', 'system', NULL, now()) RETURNING id, entity, entity_id, from_status, to_status, actor, reason, created_at;
UPDATE statements SET status = 'SUCCESS' WHERE id = :st_id;
COMMIT;
