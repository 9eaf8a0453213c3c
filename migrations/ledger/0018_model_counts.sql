-- The local model's counts (schema.ts, MODEL_TABLES). model_cells WITHOUT ROWID: read and written by its key.
CREATE TABLE `model_categories` (
	`category` text PRIMARY KEY NOT NULL,
	`examples` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `model_cells` (
	`category` text NOT NULL,
	`feature` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`category`, `feature`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `model_marks` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`hash` integer NOT NULL,
	`through_seq` integer NOT NULL,
	`through_event` integer NOT NULL
);
