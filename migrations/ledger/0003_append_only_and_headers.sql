-- The rulebook, labels and taxonomy are append-only too.
CREATE TRIGGER rule_revisions_no_update BEFORE UPDATE ON rule_revisions
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on rule_revisions is refused'); END;
--> statement-breakpoint
CREATE TRIGGER rule_revisions_no_delete BEFORE DELETE ON rule_revisions
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on rule_revisions is refused'); END;
--> statement-breakpoint
CREATE TRIGGER labels_no_update BEFORE UPDATE ON labels
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on labels is refused'); END;
--> statement-breakpoint
CREATE TRIGGER labels_no_delete BEFORE DELETE ON labels
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on labels is refused'); END;
--> statement-breakpoint
CREATE TRIGGER headers_no_update BEFORE UPDATE ON headers
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on headers is refused'); END;
--> statement-breakpoint
CREATE TRIGGER headers_no_delete BEFORE DELETE ON headers
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on headers is refused'); END;
--> statement-breakpoint
CREATE TRIGGER category_entries_no_update BEFORE UPDATE ON category_entries
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on category_entries is refused'); END;
--> statement-breakpoint
CREATE TRIGGER category_entries_no_delete BEFORE DELETE ON category_entries
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on category_entries is refused'); END;
--> statement-breakpoint
-- The five headers every tenant's chart has; categories live under them.
INSERT INTO headers (key, name, sort_order) VALUES
  ('income', 'Income', 1),
  ('cogs', 'Cost of goods sold', 2),
  ('expense', 'Expenses', 3),
  ('draw', 'Owner''s draw', 4),
  ('transfer', 'Transfers', 5);
