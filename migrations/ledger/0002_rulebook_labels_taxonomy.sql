CREATE TABLE `category_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`cat_key` text NOT NULL,
	`name` text NOT NULL,
	`header_key` text NOT NULL,
	`retired` integer NOT NULL,
	`actor` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `category_entries_key` ON `category_entries` (`cat_key`,`id`);--> statement-breakpoint
CREATE TABLE `headers` (
	`key` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`a_id` integer NOT NULL,
	`category` text,
	`old_category` text,
	`reason` text,
	`actor` text NOT NULL,
	`op_seq` integer NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `labels_line` ON `labels` (`a_id`);--> statement-breakpoint
CREATE TABLE `rule_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`rule_key` text NOT NULL,
	`revision` integer NOT NULL,
	`match_kind` text NOT NULL,
	`match_value` text NOT NULL,
	`category` text NOT NULL,
	`priority` integer NOT NULL,
	`retired` integer NOT NULL,
	`born_from_a_id` integer,
	`actor` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `rule_revisions_key_revision` ON `rule_revisions` (`rule_key`,`revision`);--> statement-breakpoint
ALTER TABLE `decisions` ADD `op` text;