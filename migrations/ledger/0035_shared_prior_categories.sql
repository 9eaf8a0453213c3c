-- The category most opted-in tenants file a pooled word under, by its shared name; how many do, and how many of the word's tenants have a category of that name.
ALTER TABLE `shared_prior_words` ADD `category` text;--> statement-breakpoint
ALTER TABLE `shared_prior_words` ADD `category_tenants` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `shared_prior_words` ADD `naming_tenants` integer DEFAULT 0 NOT NULL;