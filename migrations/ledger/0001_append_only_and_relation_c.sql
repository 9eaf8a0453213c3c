-- The ledger is append-only: the database itself refuses UPDATE and DELETE.
CREATE TRIGGER bank_connections_no_update BEFORE UPDATE ON bank_connections
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on bank_connections is refused'); END;
--> statement-breakpoint
CREATE TRIGGER bank_connections_no_delete BEFORE DELETE ON bank_connections
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on bank_connections is refused'); END;
--> statement-breakpoint
CREATE TRIGGER feed_pages_no_update BEFORE UPDATE ON feed_pages
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on feed_pages is refused'); END;
--> statement-breakpoint
CREATE TRIGGER feed_pages_no_delete BEFORE DELETE ON feed_pages
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on feed_pages is refused'); END;
--> statement-breakpoint
CREATE TRIGGER feed_accounts_no_update BEFORE UPDATE ON feed_accounts
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on feed_accounts is refused'); END;
--> statement-breakpoint
CREATE TRIGGER feed_accounts_no_delete BEFORE DELETE ON feed_accounts
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on feed_accounts is refused'); END;
--> statement-breakpoint
CREATE TRIGGER a_lines_no_update BEFORE UPDATE ON a_lines
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on a_lines is refused'); END;
--> statement-breakpoint
CREATE TRIGGER a_lines_no_delete BEFORE DELETE ON a_lines
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on a_lines is refused'); END;
--> statement-breakpoint
CREATE TRIGGER b_lines_no_update BEFORE UPDATE ON b_lines
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on b_lines is refused'); END;
--> statement-breakpoint
CREATE TRIGGER b_lines_no_delete BEFORE DELETE ON b_lines
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on b_lines is refused'); END;
--> statement-breakpoint
CREATE TRIGGER line_events_no_update BEFORE UPDATE ON line_events
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on line_events is refused'); END;
--> statement-breakpoint
CREATE TRIGGER line_events_no_delete BEFORE DELETE ON line_events
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on line_events is refused'); END;
--> statement-breakpoint
CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on decisions is refused'); END;
--> statement-breakpoint
CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on decisions is refused'); END;
--> statement-breakpoint
CREATE TRIGGER sync_requests_no_update BEFORE UPDATE ON sync_requests
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on sync_requests is refused'); END;
--> statement-breakpoint
CREATE TRIGGER sync_requests_no_delete BEFORE DELETE ON sync_requests
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on sync_requests is refused'); END;
--> statement-breakpoint
CREATE TRIGGER sync_runs_no_update BEFORE UPDATE ON sync_runs
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on sync_runs is refused'); END;
--> statement-breakpoint
CREATE TRIGGER sync_runs_no_delete BEFORE DELETE ON sync_runs
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on sync_runs is refused'); END;
--> statement-breakpoint
-- Relation C: side A with its derived state, side B as archived twins.
-- A line's category is its latest decision; a B twin shows its A line's category.
CREATE VIEW c_rows AS
SELECT
  'A' AS side,
  a.id AS src_id,
  a.transaction_id,
  a.account_id,
  a.posted_on,
  a.description,
  a.amount_cents,
  (SELECT d.category FROM decisions d WHERE d.a_id = a.id ORDER BY d.seq DESC LIMIT 1) AS category,
  CASE
    WHEN s.a_id IS NOT NULL THEN 'superseded'
    WHEN r.a_id IS NOT NULL THEN 'retracted'
    WHEN a.pending = 1 THEN 'pending'
    ELSE 'in books'
  END AS state,
  CASE
    WHEN s.a_id IS NOT NULL THEN 'superseded by A:' || s.by_a_id
    WHEN r.a_id IS NOT NULL THEN 'retracted by the bank'
    WHEN a.pending = 1 THEN 'pending'
    ELSE ''
  END AS exclude_reason
FROM a_lines a
LEFT JOIN line_events s ON s.a_id = a.id AND s.kind = 'superseded'
LEFT JOIN line_events r ON r.a_id = a.id AND r.kind = 'retracted'
UNION ALL
SELECT
  'B' AS side,
  b.id AS src_id,
  b.transaction_id,
  b.account_id,
  b.posted_on,
  b.description,
  b.amount_cents,
  (SELECT d.category FROM decisions d WHERE d.a_id = b.twin_a_id ORDER BY d.seq DESC LIMIT 1) AS category,
  'archived' AS state,
  'duplicate of A:' || b.twin_a_id AS exclude_reason
FROM b_lines b;
