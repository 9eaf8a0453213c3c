CREATE TABLE `people` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`person_id` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`noted_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `people_person_id_unique` ON `people` (`person_id`);