-- pgbench: the database work of one POST /api/wallet/withdraw, statement for statement, in the
-- order the app sends it (captured with SQLAlchemy's echo; see bench/README.md). The bench
-- passes -D lo=… -D hi=… to pick the member (lo = hi: one hot wallet).
\set i random(:lo, :hi)
-- wallet.withdrawal_statement.withdraw_alone: the whole request in one statement, alone in
-- autocommit (pao.wallet.ddl's pao_withdraw, ADR 0039): the login of the token (the token of
-- member i is 'bench-token-<i>', stored as its SHA-256) and its member, the key's replay, the
-- limits of the member's currency, the bank account, the bonus gate (promotions' column of the
-- same statement), the key's claim, the hold, the withdrawal and its statement line through
-- pao_request_withdrawal, the key's answer. (withdraw_steps.sql has the steps, one by one, as
-- SQLite and a member's first withdrawal send them.)
SELECT outcome, member_id, currency, withdrawal_id, answer FROM pao_withdraw(encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex'), now(), 'ACTIVE', 'member:', 'pgbench-' || txid_current(), 'd2b8e1c6f3a94f0b8e6a2c5d7f1e3b9a4c6d8e0f2a4b6c8d0e2f4a6b8c0d2e4f', 100, ARRAY['THB', 'LAK'], ARRAY[CAST(100 AS bigint), 5000000], ARRAY[CAST(5000000 AS bigint), 2000000000], EXISTS (SELECT promo_member_bonuses.id FROM promo_member_bonuses WHERE promo_member_bonuses.member_id = (SELECT login_sessions.member_id FROM login_sessions WHERE login_sessions.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex')) AND promo_member_bonuses.status = 'ACTIVE'), CAST('{"code": "OK", "status": "PENDING", "withdrawalId": 0}' AS jsonb), 'withdrawalId', 'withdrawal to ', 'player_wallet', 'withdrawals_pending', 'hold:' || 'withdrawal', 'withdrawal', 'PENDING', 'PENDING', 'withdraw', 'PENDING', 'WALLET', 'withdrawal');
