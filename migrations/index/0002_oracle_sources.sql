CREATE TABLE `oracle_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`ran_at` text NOT NULL,
	`as_of` text NOT NULL,
	`status` text NOT NULL,
	`revision` integer,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `oracle_runs_tenant` ON `oracle_runs` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `oracle_sources` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`bearer_secret` text,
	`set_at` text NOT NULL
);
