-- pgbench: the database work of one POST /api/wallet/transfer, wallet → game (1 THB to JOKER,
-- one provider whose float all members share), statement for statement and transaction for
-- transaction, in the order the app sends it (bench/sqlcheck.py compares them). The provider
-- answers at once in the bench (bench.app.InstantProvider), so nothing runs between the
-- transactions but the app's own code. -D lo=… -D hi=… pick the member.
\set i random(:lo, :hi)
-- the request's own transaction: identity.deps.current_login, and transaction 1 goes on in it
-- (games.transfers.request_transfer), committed before the provider is called
BEGIN;
SELECT s.id, s.member_id, s.token_digest, s.created_at, s.expires_at, s.revoked_at, s.ip, s.user_agent, m.id AS mid, m.phone, m.name, m.password_hash, m.status, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no, m.source_code, m.inviter_id, m.coin, m.agreement_accepted_at, m.created_at AS m_created_at FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id WHERE s.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex') \gset s_
-- transaction 1 (games.transfers._start under kit.idempotency.run_idempotent): the key, then
-- pao_begin_transfer_in (ADR 0018, pao.games.ddl): the game and the member's account on it,
-- the wallet and the member's game-transfers suspense account locked together, the hold, the
-- transfer row and its statement line in one statement; the key's answer (the provider call
-- is planned from what this transaction read: games.transfers._plan_of). The provider's
-- availability comes from the process's cache (games.availability, ADR 0013 amendment: re-read
-- at most once a second per process, not per request), so no statement reads it here.
INSERT INTO idempotency_keys (owner, key, request_hash, created_at) VALUES ('member:' || CAST(:s_member_id AS text), 'pgbench-' || txid_current(), 'ee97b2663777f48b8b1772685451f514dc3dd81edc42efdc862c2f9ac0f6667e', now()) ON CONFLICT (owner, key) DO NOTHING RETURNING id \gset k_
SELECT outcome, username, transfer_pk, hold_id, wallet_id, wallet_balance, suspense_id, suspense_balance FROM pao_begin_transfer_in(CAST(:s_member_id AS bigint), 'THB', 'JOKER', 100, 'player_wallet', 'game_transfers_pending', 'hold:' || 'game', 'member:' || CAST(:s_member_id AS text), 'transfer to JOKER', 'game', 'PENDING', 'pgbench-' || txid_current(), 'in', 'PENDING', CAST(NULL AS bigint), 'WALLET', now() + interval '30 seconds', 'transfer', 'PENDING', 'game_transfer', now()) \gset b_
UPDATE idempotency_keys SET status_code = 200, response = CAST('{"code": "PENDING", "transfers": [{"transferId": "1", "from": "WALLET", "to": "JOKER", "amount": 1.0, "status": "PENDING"}]}' AS json) WHERE id = :k_id;
COMMIT;
-- (the provider confirms at once)
-- transaction 2, games.transfers.settle: pao_settle_transfer (pao.games.ddl) locks the
-- transfer, posts the hold to the member's shard of JOKER's float (the hold locked, then the
-- three accounts in id order, the entry, balances, postings), records the hold POSTED, the
-- transfer SUCCESS and the statement line SUCCESS (each status change a status_changes row),
-- and answers with the transfer as it leaves it (games.transfers._finish builds the answer
-- from it). The bench's provider reports no game balance (NULL).
BEGIN;
SELECT outcome, t_id, t_transfer_id, t_member_id, t_game_code, t_direction, t_amount, t_currency, t_status, t_hold_id, t_then_to, t_parent_id, t_from_label, t_to_label, t_attempts, t_next_check_at, t_error, t_created_at, t_settled_at FROM pao_settle_transfer(CAST(:b_transfer_pk AS bigint), 'in', 'PENDING', 'SUCCESS', 'provider_float', 32, 'player_wallet', 'post:' || 'game', 'game_withdraw', 'games', 'game transfer ', 'PENDING', 'POSTED', 'ledger_holds', 'game_transfers', 'statements', 'game_transfer', 'PENDING', 'SUCCESS', 'system', CAST(NULL AS bigint), now());
COMMIT;
