CREATE TABLE `tail_asks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`a_id` integer NOT NULL,
	`model` text NOT NULL,
	`answer` text,
	`asked_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tail_asks_line` ON `tail_asks` (`a_id`);