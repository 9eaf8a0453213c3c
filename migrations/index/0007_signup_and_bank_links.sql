CREATE TABLE `bank_items` (
	`item_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`connection_id` integer NOT NULL,
	`connected_at` text NOT NULL,
	`disconnected_at` text
);
--> statement-breakpoint
CREATE INDEX `bank_items_tenant` ON `bank_items` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `bank_links` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`link_token` text NOT NULL,
	`connection_id` integer,
	`mode` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`finished_at` text,
	`outcome` text
);
--> statement-breakpoint
CREATE INDEX `bank_links_tenant` ON `bank_links` (`tenant_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `bank_links_token` ON `bank_links` (`link_token`);--> statement-breakpoint
CREATE TABLE `email_links` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`purpose` text NOT NULL,
	`email` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`used_at` text
);
--> statement-breakpoint
CREATE INDEX `email_links_tenant` ON `email_links` (`tenant_id`,`purpose`);--> statement-breakpoint
CREATE INDEX `email_links_expiry` ON `email_links` (`expires_at`);--> statement-breakpoint
CREATE TABLE `sandbox_items` (
	`item_id` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`institution_id` text NOT NULL,
	`public_token` text NOT NULL,
	`access_token` text,
	`login_required` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	`removed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_items_public_token_unique` ON `sandbox_items` (`public_token`);--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_items_access_token_unique` ON `sandbox_items` (`access_token`);--> statement-breakpoint
CREATE INDEX `sandbox_items_tenant` ON `sandbox_items` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `sandbox_link_sessions` (
	`link_token` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`completion_uri` text NOT NULL,
	`item_id` text,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`outcome` text,
	`public_token` text,
	`finished_at` text
);
--> statement-breakpoint
CREATE TABLE `sandbox_mail` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`to` text NOT NULL,
	`subject` text NOT NULL,
	`text_body` text NOT NULL,
	`message_id` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sandbox_mail_to` ON `sandbox_mail` (`to`,`id`);--> statement-breakpoint
DROP INDEX `sandbox_bank_changes_tenant`;--> statement-breakpoint
DROP INDEX `sandbox_bank_changes_kind`;--> statement-breakpoint
ALTER TABLE `sandbox_bank_changes` ADD `feed` text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX `sandbox_bank_changes_feed` ON `sandbox_bank_changes` (`tenant_id`,`feed`,`seq`);--> statement-breakpoint
CREATE INDEX `sandbox_bank_changes_feed_kind` ON `sandbox_bank_changes` (`tenant_id`,`feed`,`kind`,`seq`);--> statement-breakpoint
ALTER TABLE `tenants` ADD `business_name` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `owner_email` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `email_verified_at` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `terms_accepted_at` text;--> statement-breakpoint
ALTER TABLE `tenants` ADD `signup_key_hash` text;