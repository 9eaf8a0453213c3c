CREATE TABLE `access_tokens` (
	`kid` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`label` text NOT NULL,
	`scope` text NOT NULL,
	`secret_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text
);
--> statement-breakpoint
CREATE INDEX `access_tokens_tenant` ON `access_tokens` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `sandbox_bank_changes` (
	`seq` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`queued_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sandbox_bank_changes_tenant` ON `sandbox_bank_changes` (`tenant_id`,`seq`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`tenant_id` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`ended_at` text
);
--> statement-breakpoint
CREATE INDEX `sessions_tenant` ON `sessions` (`tenant_id`);--> statement-breakpoint
CREATE TABLE `tenants` (
	`id` text PRIMARY KEY NOT NULL,
	`tier` text NOT NULL,
	`visible_from` text,
	`phone` text NOT NULL,
	`sms_enabled` integer NOT NULL,
	`password_salt` text NOT NULL,
	`password_hash` text NOT NULL,
	`password_iterations` integer NOT NULL,
	`created_at` text NOT NULL
);
