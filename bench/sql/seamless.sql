-- pgbench: the database work of one Hub88 bet + win pair (POST /api/hub88/transaction/bet, then
-- /win naming the bet), statement for statement, in the order the app sends them
-- (bench/sqlcheck.py compares them): each call is one pao_seamless_call in autocommit (ADR
-- 0033). One member, one provider (Hub88), its clearing sharded (ADR 0014). The bet is 1 THB,
-- the win 0.90 THB, the round closed by the win.
-- -D lo=… -D hi=… pick the member. The provider's transaction ids are 'b' || n (the bet), 'w' || n
-- (the win), the round 'r' || n: bench/bare_seamless.py runs the same statements with n read
-- from the signed body's ids (b<n>, w<n>), pgbench draws n from a range the bodies never use.
\set i random(:lo, :hi)
\set n random(1000000000000000, 1999999999999999)
-- ===== bet =====
-- hub88.wallet.transaction_bet, by itself in autocommit (executor.fetch_alone): the launch's
-- token and whether the catalogue has the game, by one statement
SELECT seamless_sessions.provider, seamless_sessions.member_id, seamless_sessions.currency, seamless_sessions.expires_at, EXISTS (SELECT * FROM seamless_games WHERE seamless_games.provider = 'hub88' AND seamless_games.game_code = 'bench_slot' AND seamless_games.enabled IS true) AS known_game FROM seamless_sessions WHERE seamless_sessions.token = 'bench-hub88-' || CAST(:i AS text);
-- core.play: the member, the wallet and clearing shard locked, the id and a rollback before it
-- looked up, the entry, balances, postings, transaction row, statement line and round, by one
-- statement in autocommit (pao.games.seamless.ddl; the actor's colon is concatenated: pgbench would read
-- ':hub88' as a variable)
SELECT outcome, replayed, member_currency, balance_before, balance_after FROM pao_seamless_call('bet', 'hub88', 'b' || CAST(:n AS text), CAST(:i AS bigint), 'THB', 'r' || CAST(:n AS text), 'bench_slot', 100, NULL, false, 'bet', 'win', 'rollback', 'ACTIVE', 'player_wallet', 'seamless_clearing', CAST(:i AS integer) % 32, 'seamless.bet', 'provider' || ':' || 'hub88', 'bench_slot r' || CAST(:n AS text) || ' b' || CAST(:n AS text), 'transfer', 'SUCCESS', 'WALLET', 'HUB88', 'seamless_bet', now());
-- ===== win =====
-- core.play (no token, no catalogue: a win is never refused for them): the same, the bet found
-- and marked settled, the round closed
SELECT outcome, replayed, member_currency, balance_before, balance_after FROM pao_seamless_call('win', 'hub88', 'w' || CAST(:n AS text), CAST(:i AS bigint), 'THB', 'r' || CAST(:n AS text), 'bench_slot', 90, 'b' || CAST(:n AS text), true, 'bet', 'win', 'rollback', 'ACTIVE', 'player_wallet', 'seamless_clearing', CAST(:i AS integer) % 32, 'seamless.win', 'provider' || ':' || 'hub88', 'bench_slot r' || CAST(:n AS text) || ' w' || CAST(:n AS text), 'transfer', 'SUCCESS', 'WALLET', 'HUB88', 'seamless_win', now());
