-- pgbench: withdraw.sql's transaction as one statement (bench/sql/withdraw_function.sql), for
-- the round-trip experiment (bench/client_pace.py). One round trip; the statement is its own
-- transaction.
\set i random(:lo, :hi)
SELECT bench_withdraw(:i);
