CREATE TABLE `seat_roles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seat_id` integer NOT NULL,
	`tenant_id` text NOT NULL,
	`role` text NOT NULL,
	`actor` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `seat_roles_seat` ON `seat_roles` (`seat_id`,`id`);--> statement-breakpoint
-- The email links table is rebuilt so that a link may be a person's (tenant_id null); it holds no foreign key.
CREATE TABLE `__new_email_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text,
	`person_id` text,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text,
	CONSTRAINT "email_links_one_account" CHECK((tenant_id IS NULL) <> (person_id IS NULL))
);
--> statement-breakpoint
INSERT INTO `__new_email_links`("token_hash", "tenant_id", "person_id", "purpose", "email", "created_at", "expires_at", "used_at") SELECT "token_hash", "tenant_id", NULL, "purpose", "email", "created_at", "expires_at", "used_at" FROM `email_links`;--> statement-breakpoint
DROP TABLE `email_links`;--> statement-breakpoint
ALTER TABLE `__new_email_links` RENAME TO `email_links`;--> statement-breakpoint
CREATE INDEX `email_links_tenant` ON `email_links` (`tenant_id`,`purpose`);--> statement-breakpoint
CREATE INDEX `email_links_expiry` ON `email_links` (`expires_at`);--> statement-breakpoint
ALTER TABLE `bank_links` ADD `opened_by` text;--> statement-breakpoint
ALTER TABLE `invitations` ADD `withdrawn_by` text;