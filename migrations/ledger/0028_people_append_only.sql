-- A person is noted once, as they were when they took their seat: never edited.
CREATE TRIGGER people_no_update BEFORE UPDATE ON people
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on people is refused'); END;
--> statement-breakpoint
CREATE TRIGGER people_no_delete BEFORE DELETE ON people
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on people is refused'); END;
