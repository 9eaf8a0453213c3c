CREATE TABLE `a_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`transaction_id` text NOT NULL,
	`account_id` text NOT NULL,
	`posted_on` text NOT NULL,
	`authorized_on` text,
	`description` text NOT NULL,
	`merchant_name` text,
	`amount_cents` integer NOT NULL,
	`pending` integer NOT NULL,
	`pending_transaction_id` text,
	`arrival` text NOT NULL,
	`raw` text NOT NULL,
	`page_id` integer NOT NULL,
	`arrived_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `a_lines_transaction` ON `a_lines` (`transaction_id`,`id`);--> statement-breakpoint
CREATE INDEX `a_lines_posted` ON `a_lines` (`posted_on`);--> statement-breakpoint
CREATE INDEX `a_lines_account` ON `a_lines` (`account_id`);--> statement-breakpoint
CREATE TABLE `b_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`twin_a_id` integer NOT NULL,
	`transaction_id` text NOT NULL,
	`account_id` text NOT NULL,
	`posted_on` text NOT NULL,
	`description` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`raw` text NOT NULL,
	`page_id` integer NOT NULL,
	`arrived_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `b_lines_twin` ON `b_lines` (`twin_a_id`);--> statement-breakpoint
CREATE INDEX `b_lines_posted` ON `b_lines` (`posted_on`);--> statement-breakpoint
CREATE TABLE `bank_connections` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`provider` text NOT NULL,
	`access_token` text DEFAULT '' NOT NULL,
	`connected_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `decisions` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`a_id` integer NOT NULL,
	`category` text,
	`engine` text NOT NULL,
	`actor` text,
	`rule_key` text,
	`rule_revision` integer,
	`model_version` text,
	`confidence_ppm` integer,
	`carried_from_a_id` integer,
	`decided_at` text NOT NULL,
	`recorded_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `decisions_line` ON `decisions` (`a_id`,`seq`);--> statement-breakpoint
CREATE TABLE `feed_accounts` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`mask` text,
	`type` text,
	`subtype` text,
	`arrived_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `feed_accounts_account` ON `feed_accounts` (`account_id`,`seq`);--> statement-breakpoint
CREATE TABLE `feed_pages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`connection_id` integer NOT NULL,
	`cursor_before` text NOT NULL,
	`cursor_after` text NOT NULL,
	`applied_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `feed_pages_cursor_pair` ON `feed_pages` (`connection_id`,`cursor_before`,`cursor_after`);--> statement-breakpoint
CREATE TABLE `line_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`a_id` integer NOT NULL,
	`kind` text NOT NULL,
	`by_a_id` integer,
	`page_id` integer NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `line_events_once` ON `line_events` (`a_id`,`kind`);--> statement-breakpoint
CREATE INDEX `line_events_by` ON `line_events` (`by_a_id`);--> statement-breakpoint
CREATE TABLE `sync_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor` text NOT NULL,
	`requested_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text NOT NULL,
	`pages` integer NOT NULL,
	`added` integer NOT NULL,
	`modified` integer NOT NULL,
	`removed` integer NOT NULL,
	`duplicates` integer NOT NULL,
	`status` text NOT NULL,
	`final` integer NOT NULL,
	`error` text
);
--> statement-breakpoint
CREATE INDEX `sync_runs_request` ON `sync_runs` (`request_id`);