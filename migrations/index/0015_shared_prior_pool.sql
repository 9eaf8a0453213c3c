-- The pooled shared merchant prior, computed once a day at the daily run's start and read by each tenant's day.
CREATE TABLE `shared_prior_pool` (
	`word` text PRIMARY KEY NOT NULL,
	`tenants` integer NOT NULL,
	`agreement_ppm` integer NOT NULL,
	`category` text,
	`category_tenants` integer NOT NULL,
	`naming_tenants` integer NOT NULL,
	`pooled_at` text NOT NULL
);
