CREATE TABLE `parity_verdicts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`as_of` text NOT NULL,
	`revision` integer NOT NULL,
	`verdict` text NOT NULL,
	`oracle` text NOT NULL,
	`actor` text NOT NULL,
	`filed_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `parity_verdicts_day_revision` ON `parity_verdicts` (`as_of`,`revision`);