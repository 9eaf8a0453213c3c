-- The category a tenant files a contributed word under (by its shared name; null where its lines split), and the shared names of its categories.
CREATE TABLE `shared_prior_categories` (
	`tenant_id` text NOT NULL,
	`category` text NOT NULL,
	PRIMARY KEY(`tenant_id`, `category`)
);
--> statement-breakpoint
ALTER TABLE `shared_prior_contributions` ADD `category` text;