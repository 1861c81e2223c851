-- pgbench: the database work of one POST /api/wallet/transfer, game → wallet (1 THB from JOKER,
-- one provider whose float all members share), statement for statement and transaction for
-- transaction, in the order the app sends it (bench/sqlcheck.py compares them). The provider
-- confirms at once in the bench (bench.app.InstantProvider), so nothing runs between the
-- transactions but the app's own code. -D lo=… -D hi=… pick the member.
\set i random(:lo, :hi)
-- transaction 1, games.transfer_statement.begin_alone: the whole request up to the provider
-- call in one statement, alone in autocommit (pao.games.ddl's pao_transfer_begin, ADR 0039,
-- the same function as wallet → game's): the login of the token and its member, the key's
-- replay, the provider's state (from the process's cache, passed in), the promotions' gate (no
-- transfer back to the wallet while a bonus is ACTIVE: its expression, an argument), the
-- key's claim, the game's flag and the member's account on it, the transfer PENDING and its
-- statement line (no money moves before the provider confirms), the key's answer.
SELECT outcome, username, transfer_pk, answer FROM pao_transfer_begin(encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex'), now(), 'ACTIVE', 'member:', 'pgbench-' || txid_current(), '4163397217e31509950d0bc0b650b16cc88a55657938bf4479196d8a6d99540f', false, EXISTS (SELECT promo_member_bonuses.id FROM promo_member_bonuses WHERE promo_member_bonuses.member_id = (SELECT login_sessions.member_id FROM login_sessions WHERE login_sessions.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex')) AND promo_member_bonuses.status = 'ACTIVE'), CAST('{"code": "PENDING", "transfers": [{"transferId": "0", "from": "JOKER", "to": "WALLET", "amount": 1.0, "status": "PENDING"}]}' AS jsonb), false, 'WALLET', 'JOKER', 100, 'player_wallet', 'game_transfers_pending', 'hold:' || 'game', 'transfer to JOKER', 'game', 'PENDING', 'pgbench-out-' || txid_current(), 'out', 'PENDING', 'JOKER', now() + interval '30 seconds', 'transfer', 'PENDING', 'game_transfer') \gset b_
-- (the provider confirms at once)
-- transaction 2, games.transfers.settle: pao_settle_transfer (pao.games.ddl), the same call as
-- wallet → game's (the function reads the transfer's direction): the transfer locked, the
-- member's shard of JOKER's float → the wallet (the accounts locked in id order, the entry,
-- balances, postings), the transfer SUCCESS and the statement line SUCCESS (each status change
-- a status_changes row); it answers with the transfer as it leaves it. The bench's provider
-- reports no game balance (NULL).
BEGIN;
SELECT outcome, t_id, t_transfer_id, t_member_id, t_game_code, t_direction, t_amount, t_currency, t_status, t_hold_id, t_then_to, t_parent_id, t_from_label, t_to_label, t_attempts, t_next_check_at, t_error, t_created_at, t_settled_at FROM pao_settle_transfer(CAST(:b_transfer_pk AS bigint), 'in', 'PENDING', 'SUCCESS', 'provider_float', 32, 'player_wallet', 'post:' || 'game', 'game_withdraw', 'games', 'game transfer ', 'PENDING', 'POSTED', 'ledger_holds', 'game_transfers', 'statements', 'game_transfer', 'PENDING', 'SUCCESS', 'system', CAST(NULL AS bigint), now());
COMMIT;
