-- pgbench: the database work of one POST /api/wallet/slip that is credited (a 1 THB slip,
-- a fresh Idempotency-Key, a transfer never claimed before), statement for statement and
-- transaction for transaction, in the order the app sends it (bench/sqlcheck.py compares
-- them). The app decodes the image (no database) before transaction 1 and asks the bank
-- (in process in the bench: bench.app.InstantBank) between transactions 1 and 2.
-- The ledger's credit (ledger.credit_wallet) is one call of pao_credit_wallet, as the app sends
-- it on PostgreSQL (pao.ledger.credit_ddl, ADR 0018): bank clearing and the wallet locked, the
-- entry, the balances and the postings in one statement. SQLite and a member's first deposit
-- send them one by one.
-- -D lo=… -D hi=… pick the member.
\set i random(:lo, :hi)
-- the request's own transaction: identity.deps.current_login, then ended (slips.router.upload)
BEGIN;
SELECT s.id, s.member_id, s.token_digest, s.created_at, s.expires_at, s.revoked_at, s.ip, s.user_agent, m.id AS mid, m.phone, m.name, m.password_hash, m.status, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no, m.source_code, m.inviter_id, m.coin, m.agreement_accepted_at, m.created_at AS m_created_at FROM login_sessions AS s JOIN members AS m ON m.id = s.member_id WHERE s.token_digest = encode(sha256(convert_to('bench-token-' || :i, 'UTF8')), 'hex') \gset s_
COMMIT;
-- transaction 1, slips.service._accept: the key's earlier slip, the slip PENDING (the image
-- stored on disk meanwhile; the member's currency from the login), the transfer claimed; both
-- inserts ON CONFLICT DO NOTHING (no savepoint). The upload asks the bank next, from what
-- transaction 1 wrote: no read of the slip in between.
BEGIN;
SELECT id, member_id, status, reason, file_key, image_sha256, idempotency_key, sending_bank, reference, amount, currency, sender_bank, sender_account, receiver_bank, receiver_account, transferred_at, journal_entry_id, created_at, settled_at, bank_lookup, review_status, reviewed_by, reviewed_at, review_note FROM slips WHERE member_id = :s_member_id AND idempotency_key = 'pgbench-' || txid_current();
INSERT INTO slips (member_id, status, file_key, image_sha256, idempotency_key, sending_bank, reference, amount, currency, created_at) VALUES (:s_member_id, 'PENDING', 'slips/' || :s_member_id || '/' || md5(txid_current()::text) || '.png', md5(txid_current()::text) || md5(txid_current()::text), 'pgbench-' || txid_current(), '004', 'PGB' || txid_current(), 0, :s_currency, now()) ON CONFLICT (member_id, idempotency_key) DO NOTHING RETURNING id, member_id, status, reason, file_key, image_sha256, idempotency_key, sending_bank, reference, amount, currency, sender_bank, sender_account, receiver_bank, receiver_account, transferred_at, journal_entry_id, created_at, settled_at, bank_lookup, review_status, reviewed_by, reviewed_at, review_note \gset sl_
INSERT INTO slip_claims (sending_bank, reference, slip_id, created_at) VALUES ('004', 'PGB' || txid_current(), :sl_id, now()) ON CONFLICT (sending_bank, reference) DO NOTHING RETURNING id;
COMMIT;
-- (the bank answers: the transfer, 1 THB from the member's account to the operator's)
-- transaction 2, slips.service._judge and credit_slip: the slip locked with its member, the
-- receiving accounts checked, bank clearing (the member's shard) → wallet (one call of
-- pao_credit_wallet), SUCCESS written
-- with the bank's answer (one UPDATE of the slip), the statement line, DepositCredited
-- (promotions' deposit record; the member's LINE contact, if they take notices on LINE:
-- support.line.notices, none in the bench)
BEGIN;
SELECT s.id, s.member_id, s.status, s.reason, s.file_key, s.image_sha256, s.idempotency_key, s.sending_bank, s.reference, s.amount, s.currency, s.sender_bank, s.sender_account, s.receiver_bank, s.receiver_account, s.transferred_at, s.journal_entry_id, s.created_at, s.settled_at, s.bank_lookup, s.review_status, s.reviewed_by, s.reviewed_at, s.review_note, m.id, m.phone, m.name, m.password_hash, m.status, m.currency, m.bank_code, m.bank_account_name, m.bank_account_no, m.source_code, m.inviter_id, m.coin, m.agreement_accepted_at, m.created_at FROM slips AS s JOIN members AS m ON m.id = s.member_id WHERE s.id = :sl_id FOR UPDATE OF s;
SELECT code, account_no FROM receiving_accounts WHERE active IS true AND kind = 'BANK' ORDER BY id;
SELECT outcome, entry_id, source_id, source_balance, wallet_id, wallet_balance FROM pao_credit_wallet('bank_clearing', '', CAST(:s_member_id AS int) % 32, 'player_wallet', CAST(:s_member_id AS text), 0, 'THB', CAST(100 AS bigint), 'deposit', 'slip:' || :sl_id, 'slip 004' || ':' || 'PGB' || :sl_id, now()) \gset e_
INSERT INTO status_changes (entity, entity_id, from_status, to_status, actor, reason, created_at) VALUES ('slips', :sl_id, 'PENDING', 'SUCCESS', 'slip:' || :sl_id, NULL, now()) RETURNING id;
UPDATE slips SET status = 'SUCCESS', amount = 100, sender_bank = 'KBANK', sender_account = :s_bank_account_no, receiver_bank = 'SCB', receiver_account = '4441112223', transferred_at = now(), journal_entry_id = :e_entry_id, settled_at = now(), bank_lookup = CAST('{"outcome": "FOUND", "reference": "PGB", "sendingBank": "004", "amount": 100, "currency": "THB", "senderBank": "KBANK", "receiverBank": "SCB", "receiverAccount": "4441112223"}' AS json) WHERE id = :sl_id;
INSERT INTO statements (member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at) VALUES (:s_member_id, 'deposit', 'SUCCESS', 'KBANK', 'WALLET', 100, 'THB', 'slip', CAST(:sl_id AS text), NULL, now()) RETURNING id, member_id, statement_type, status, from_label, to_label, amount, currency, ref_type, ref_id, extra, created_at;
INSERT INTO promo_deposits (member_id, amount, currency, channel, reference, used_by_id, created_at) VALUES (:s_member_id, 100, 'THB', 'slip', '004' || ':' || 'PGB' || :sl_id, NULL, now()) RETURNING id, member_id, amount, currency, channel, reference, used_by_id, created_at;
SELECT line_contacts.line_user_id, line_contacts.display_name, line_contacts.language, line_contacts.following, line_contacts.followed_at, line_contacts.unfollowed_at, line_contacts.reply_token, line_contacts.reply_token_at, line_contacts.created_at, line_contacts.member_id, line_contacts.linked_at, line_contacts.notices FROM line_contacts WHERE line_contacts.member_id = :s_member_id AND line_contacts.notices IS true AND line_contacts.following IS true;
COMMIT;
