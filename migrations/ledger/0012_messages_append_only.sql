-- The message thread is append-only: a release is an event, never an edit of the draft.
CREATE TRIGGER messages_no_update BEFORE UPDATE ON messages
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on messages is refused'); END;
--> statement-breakpoint
CREATE TRIGGER messages_no_delete BEFORE DELETE ON messages
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on messages is refused'); END;
--> statement-breakpoint
CREATE TRIGGER message_events_no_update BEFORE UPDATE ON message_events
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on message_events is refused'); END;
--> statement-breakpoint
CREATE TRIGGER message_events_no_delete BEFORE DELETE ON message_events
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on message_events is refused'); END;
