CREATE TABLE `bank_connection_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection_id` integer NOT NULL,
	`status` text NOT NULL,
	`detail` text NOT NULL,
	`actor` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bank_connection_events_connection` ON `bank_connection_events` (`connection_id`,`id`);--> statement-breakpoint
CREATE TABLE `bank_connection_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection_id` integer NOT NULL,
	`access_token` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bank_connection_tokens_connection` ON `bank_connection_tokens` (`connection_id`,`id`);--> statement-breakpoint
CREATE TABLE `ledger_opening` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant` text NOT NULL,
	`opened_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `bank_connections` ADD `item_id` text;--> statement-breakpoint
ALTER TABLE `bank_connections` ADD `institution` text;