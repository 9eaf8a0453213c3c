CREATE TABLE `shared_prior_contributions` (
	`tenant_id` text NOT NULL,
	`word` text NOT NULL,
	`agreement_ppm` integer NOT NULL,
	PRIMARY KEY(`tenant_id`, `word`)
);
--> statement-breakpoint
CREATE INDEX `shared_prior_contributions_word` ON `shared_prior_contributions` (`word`);