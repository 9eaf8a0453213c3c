-- A connection's status changes, its re-encrypted tokens and the ledger's opening are facts: appended, never edited.
CREATE TRIGGER bank_connection_events_no_update BEFORE UPDATE ON bank_connection_events
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on bank_connection_events is refused'); END;
--> statement-breakpoint
CREATE TRIGGER bank_connection_events_no_delete BEFORE DELETE ON bank_connection_events
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on bank_connection_events is refused'); END;
--> statement-breakpoint
CREATE TRIGGER bank_connection_tokens_no_update BEFORE UPDATE ON bank_connection_tokens
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on bank_connection_tokens is refused'); END;
--> statement-breakpoint
CREATE TRIGGER bank_connection_tokens_no_delete BEFORE DELETE ON bank_connection_tokens
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on bank_connection_tokens is refused'); END;
--> statement-breakpoint
CREATE TRIGGER ledger_opening_no_update BEFORE UPDATE ON ledger_opening
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on ledger_opening is refused'); END;
--> statement-breakpoint
CREATE TRIGGER ledger_opening_no_delete BEFORE DELETE ON ledger_opening
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on ledger_opening is refused'); END;
