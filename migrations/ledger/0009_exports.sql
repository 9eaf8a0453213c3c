CREATE TABLE `export_pushes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`export_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`status` text NOT NULL,
	`rows` integer NOT NULL,
	`final` integer NOT NULL,
	`error` text,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `export_pushes_export` ON `export_pushes` (`export_id`);--> statement-breakpoint
CREATE TABLE `exports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`destination_id` integer,
	`destinations` text NOT NULL,
	`max_a_id` integer NOT NULL,
	`max_event_id` integer NOT NULL,
	`max_decision_seq` integer NOT NULL,
	`max_category_entry_id` integer NOT NULL,
	`max_account_seq` integer NOT NULL,
	`floor` text,
	`transactions` integer NOT NULL,
	`accounts` integer NOT NULL,
	`actor` text NOT NULL,
	`created_at` text NOT NULL
);
