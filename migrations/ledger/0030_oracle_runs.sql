CREATE TABLE `oracle_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ran_at` text NOT NULL,
	`as_of` text NOT NULL,
	`status` text NOT NULL,
	`revision` integer,
	`error` text,
	`oracle_url` text NOT NULL,
	`actor` text NOT NULL,
	`recorded_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `oracle_runs_ran_at` ON `oracle_runs` (`ran_at`);--> statement-breakpoint
CREATE INDEX `oracle_runs_day` ON `oracle_runs` (`as_of`);