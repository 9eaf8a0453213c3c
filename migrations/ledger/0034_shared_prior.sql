CREATE TABLE `shared_prior_choices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`opted_in` integer NOT NULL,
	`actor` text NOT NULL,
	`chosen_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `shared_prior_words` (
	`word` text PRIMARY KEY NOT NULL,
	`tenants` integer NOT NULL,
	`agreement_ppm` integer NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER shared_prior_choices_no_update BEFORE UPDATE ON shared_prior_choices
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on shared_prior_choices is refused'); END;
--> statement-breakpoint
CREATE TRIGGER shared_prior_choices_no_delete BEFORE DELETE ON shared_prior_choices
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on shared_prior_choices is refused'); END;
