-- What the external model was asked and answered is append-only too.
CREATE TRIGGER tail_asks_no_update BEFORE UPDATE ON tail_asks
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on tail_asks is refused'); END;
--> statement-breakpoint
CREATE TRIGGER tail_asks_no_delete BEFORE DELETE ON tail_asks
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on tail_asks is refused'); END;
