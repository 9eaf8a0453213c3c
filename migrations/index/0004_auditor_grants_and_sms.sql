CREATE TABLE `auditor_grants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`request_id` integer NOT NULL,
	`viewer_name` text NOT NULL,
	`viewer_channel` text NOT NULL,
	`token_kid` text NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`revoked_at` text,
	`last_read_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `auditor_grants_request_id_unique` ON `auditor_grants` (`request_id`);--> statement-breakpoint
CREATE INDEX `auditor_grants_tenant` ON `auditor_grants` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `grant_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`viewer_name` text NOT NULL,
	`viewer_channel` text NOT NULL,
	`salt` text NOT NULL,
	`code_digest` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`confirmed_at` text
);
--> statement-breakpoint
CREATE INDEX `grant_requests_tenant` ON `grant_requests` (`tenant_id`,`id`);--> statement-breakpoint
CREATE TABLE `sandbox_outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`tenant_id` text NOT NULL,
	`to` text NOT NULL,
	`body` text NOT NULL,
	`sid` text NOT NULL,
	`at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sandbox_outbox_tenant` ON `sandbox_outbox` (`tenant_id`,`id`);--> statement-breakpoint
CREATE INDEX `tenants_phone` ON `tenants` (`phone`);