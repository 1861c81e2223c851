-- pgbench: the database work of one POST /api/wallet/transfer, game → wallet (1 THB from JOKER,
-- one provider whose float all members share), statement for statement and transaction for
-- transaction, in the order the app sends it (bench/sqlcheck.py compares them). The provider
-- confirms at once in the bench (bench.app.InstantProvider), so nothing runs between the
-- transactions but the app's own code. -D lo=… -D hi=… pick the member.
\set i random(:lo, :hi)
-- the request's own transaction: identity.deps.current_login, and transaction 1 goes on in it
-- (games.transfers.request_transfer), committed before the provider is called
BEGIN;
SELECT s.id, s.member_id, s.token_digest, s.created_at, s.expires_at, s.revoked_at, s.ip, s.user_agent, s.device_id, m.id AS mid, m.phone, m.name, m.password_hash, m.status, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no, m.source_code, m.inviter_id, m.coin, m.agreement_accepted_at, m.created_at AS m_created_at, m.excluded_until, m.limits_set FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id WHERE s.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex') \gset s_
-- transaction 1 (games.transfers._start under kit.idempotency.run_idempotent): the key; the
-- promotions' gate (no transfer back to the wallet while a bonus is ACTIVE:
-- promotions.gates.check_transfer_allowed); games.transfers.begin_out: the game's flag and the
-- member's account on it (_account), the transfer PENDING and its statement line (no money
-- moves before the provider confirms: no hold, no ledger statement); the key's answer. The
-- provider's availability comes from the process's cache (games.availability), as for
-- wallet → game.
INSERT INTO idempotency_keys (owner, key, request_hash, created_at) VALUES ('member:' || CAST(:s_member_id AS text), 'pgbench-' || txid_current(), '4163397217e31509950d0bc0b650b16cc88a55657938bf4479196d8a6d99540f', now()) ON CONFLICT (owner, key) DO NOTHING RETURNING id \gset k_
SELECT promo_member_bonuses.id FROM promo_member_bonuses WHERE promo_member_bonuses.member_id = :s_member_id AND promo_member_bonuses.status = 'ACTIVE';
SELECT games.enabled FROM games WHERE games.code = 'JOKER';
SELECT game_accounts.id, game_accounts.member_id, game_accounts.game_code, game_accounts.username, game_accounts.password, game_accounts.last_balance, game_accounts.balance_at, game_accounts.created_at FROM game_accounts WHERE game_accounts.member_id = :s_member_id AND game_accounts.game_code = 'JOKER';
INSERT INTO game_transfers (transfer_id, member_id, game_code, direction, amount, currency, status, then_to, from_label, to_label, attempts, next_check_at, created_at) VALUES (md5('pgbench-out-' || txid_current()), :s_member_id, 'JOKER', 'out', 100, 'THB', 'PENDING', NULL, 'JOKER', 'WALLET', 0, now() + interval '30 seconds', now()) RETURNING id, transfer_id, member_id, game_code, direction, amount, currency, status, hold_id, then_to, parent_id, from_label, to_label, attempts, next_check_at, error, created_at, settled_at \gset t_
INSERT INTO statements (member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at) VALUES (:s_member_id, 'transfer', 'PENDING', 'JOKER', 'WALLET', 100, 'THB', 'game_transfer', CAST(:t_id AS text), NULL, now()) RETURNING id, member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at;
UPDATE idempotency_keys SET status_code = 200, response = CAST('{"code": "PENDING", "transfers": [{"transferId": "1", "from": "JOKER", "to": "WALLET", "amount": 1.0, "status": "PENDING"}]}' AS json) WHERE id = :k_id;
COMMIT;
-- (the provider confirms at once)
-- transaction 2, games.transfers.settle: pao_settle_transfer (pao.games.ddl), the same call as
-- wallet → game's (the function reads the transfer's direction): the transfer locked, the
-- member's shard of JOKER's float → the wallet (the accounts locked in id order, the entry,
-- balances, postings), the transfer SUCCESS and the statement line SUCCESS (each status change
-- a status_changes row); it answers with the transfer as it leaves it. The bench's provider
-- reports no game balance (NULL).
BEGIN;
SELECT outcome, t_id, t_transfer_id, t_member_id, t_game_code, t_direction, t_amount, t_currency, t_status, t_hold_id, t_then_to, t_parent_id, t_from_label, t_to_label, t_attempts, t_next_check_at, t_error, t_created_at, t_settled_at FROM pao_settle_transfer(CAST(:t_id AS bigint), 'in', 'PENDING', 'SUCCESS', 'provider_float', 32, 'player_wallet', 'post:' || 'game', 'game_withdraw', 'games', 'game transfer ', 'PENDING', 'POSTED', 'ledger_holds', 'game_transfers', 'statements', 'game_transfer', 'PENDING', 'SUCCESS', 'system', CAST(NULL AS bigint), now());
COMMIT;
