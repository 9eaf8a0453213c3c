-- Spreadsheet destinations keep a sealed OAuth refresh token (and the last access token it
-- bought) instead of an access token pasted in plain text. The pasted tokens are dropped:
-- nothing may keep them unsealed, and a destination that had one is connected again.
-- The sandbox's spreadsheets hold what pushes wrote through its stand-in of the API.
CREATE TABLE `sandbox_sheet_rows` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`spreadsheet_id` text NOT NULL,
	`sheet` text NOT NULL,
	`cells` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sandbox_sheet_rows_sheet` ON `sandbox_sheet_rows` (`tenant_id`,`spreadsheet_id`,`sheet`,`id`);--> statement-breakpoint
ALTER TABLE `export_destinations` ADD `sealed_refresh_token` text;--> statement-breakpoint
ALTER TABLE `export_destinations` ADD `sealed_access_token` text;--> statement-breakpoint
ALTER TABLE `export_destinations` ADD `access_token_expires_at` text;--> statement-breakpoint
ALTER TABLE `export_destinations` DROP COLUMN `access_token`;