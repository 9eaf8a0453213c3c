-- A daily run's parity part is recorded once, as it ended: never edited.
CREATE TRIGGER oracle_runs_no_update BEFORE UPDATE ON oracle_runs
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on oracle_runs is refused'); END;
--> statement-breakpoint
CREATE TRIGGER oracle_runs_no_delete BEFORE DELETE ON oracle_runs
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on oracle_runs is refused'); END;
