-- The daily purge deletes expired sessions by this index. An ended session now expires when
-- it ends; sessions ended before this migration are brought in line.
CREATE INDEX `sessions_expiry` ON `sessions` (`expires_at`);--> statement-breakpoint
UPDATE `sessions` SET `expires_at` = `ended_at` WHERE `ended_at` IS NOT NULL AND `ended_at` < `expires_at`;
