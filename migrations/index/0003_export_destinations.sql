CREATE TABLE `export_destinations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`spreadsheet_id` text NOT NULL,
	`sheet` text NOT NULL,
	`access_token` text NOT NULL,
	`connected_at` text NOT NULL,
	`disconnected_at` text
);
--> statement-breakpoint
CREATE INDEX `export_destinations_tenant` ON `export_destinations` (`tenant_id`,`id`);