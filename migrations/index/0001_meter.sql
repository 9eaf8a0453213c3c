CREATE TABLE `meter_caps` (
	`tenant_id` text PRIMARY KEY NOT NULL,
	`cap_millicents_month` integer NOT NULL,
	`set_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `meter_months` (
	`tenant_id` text NOT NULL,
	`month` text NOT NULL,
	`calls` integer DEFAULT 0 NOT NULL,
	`millicents` integer DEFAULT 0 NOT NULL,
	`unpriced_calls` integer DEFAULT 0 NOT NULL,
	`lines_resolved_local` integer DEFAULT 0 NOT NULL,
	`lines_sent_to_api` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`tenant_id`, `month`)
);
