-- The local model's evidence (schema.ts, MODEL_TABLES) in place of its word counts: a cache of the ledger,
-- rebuilt from it at the first need. model_examples and model_lines WITHOUT ROWID: read and written by their keys.
CREATE TABLE `model_examples` (
	`key` text NOT NULL,
	`category` text NOT NULL,
	`lines` integer NOT NULL,
	PRIMARY KEY(`key`, `category`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `model_lines` (
	`key` text PRIMARY KEY NOT NULL,
	`lines` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `model_state` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`hash` integer NOT NULL,
	`through_seq` integer NOT NULL,
	`through_event` integer NOT NULL,
	`through_line` integer NOT NULL,
	`calibration` text
);
--> statement-breakpoint
DROP TABLE `model_categories`;--> statement-breakpoint
DROP TABLE `model_cells`;--> statement-breakpoint
DROP TABLE `model_marks`;