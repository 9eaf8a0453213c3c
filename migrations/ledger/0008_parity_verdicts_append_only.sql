-- Verdicts are append-only: a repeat for the same day is a new revision, never an edit.
CREATE TRIGGER parity_verdicts_no_update BEFORE UPDATE ON parity_verdicts
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on parity_verdicts is refused'); END;
--> statement-breakpoint
CREATE TRIGGER parity_verdicts_no_delete BEFORE DELETE ON parity_verdicts
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on parity_verdicts is refused'); END;
