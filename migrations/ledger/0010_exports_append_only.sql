-- Exports and their push attempts are append-only: a receipt stays reproducible.
CREATE TRIGGER exports_no_update BEFORE UPDATE ON exports
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on exports is refused'); END;
--> statement-breakpoint
CREATE TRIGGER exports_no_delete BEFORE DELETE ON exports
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on exports is refused'); END;
--> statement-breakpoint
CREATE TRIGGER export_pushes_no_update BEFORE UPDATE ON export_pushes
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on export_pushes is refused'); END;
--> statement-breakpoint
CREATE TRIGGER export_pushes_no_delete BEFORE DELETE ON export_pushes
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on export_pushes is refused'); END;
