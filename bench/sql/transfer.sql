-- pgbench: the database work of one POST /api/wallet/transfer, wallet → game (1 THB to JOKER,
-- one provider whose float all members share), statement for statement and transaction for
-- transaction, in the order the app sends it (bench/sqlcheck.py compares them). The provider
-- answers at once in the bench (bench.app.InstantProvider), so nothing runs between the
-- transactions but the app's own code. -D lo=… -D hi=… pick the member.
\set i random(:lo, :hi)
-- transaction 1, games.transfer_statement.begin_alone: the whole request up to the provider
-- call in one statement, alone in autocommit (pao.games.ddl's pao_transfer_begin, ADR 0039): the
-- login of the token (member i's is 'bench-token-<i>', stored as its SHA-256) and its member,
-- player protection's flags, the key's replay, the provider's state (from the process's cache,
-- games.availability: passed in) and the gate (promotions' expression: false for wallet → game),
-- the key's claim, pao_begin_transfer_in (the game and the member's account on it, the wallet
-- and the member's game-transfers suspense account locked together, the hold, the transfer row
-- and its statement line), the key's answer. The provider call is planned from what it
-- returns.
SELECT outcome, username, transfer_pk, answer FROM pao_transfer_begin(encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex'), now(), 'ACTIVE', 'member:', 'pgbench-' || txid_current(), 'ee97b2663777f48b8b1772685451f514dc3dd81edc42efdc862c2f9ac0f6667e', false, false, CAST('{"code": "PENDING", "transfers": [{"transferId": "0", "from": "WALLET", "to": "JOKER", "amount": 1.0, "status": "PENDING"}]}' AS jsonb), true, 'JOKER', 'JOKER', 100, 'player_wallet', 'game_transfers_pending', 'hold:' || 'game', 'transfer to JOKER', 'game', 'PENDING', 'pgbench-' || txid_current(), 'in', 'PENDING', 'WALLET', now() + interval '30 seconds', 'transfer', 'PENDING', 'game_transfer') \gset b_
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
