-- The partial indexes' conditions say "one of these values" with OR, not IN: SQLite checks a
-- partial index's condition on every row an UPDATE of its columns touches, and builds an IN
-- list's lookup table afresh each time (a quarter of a second in a 100,000-line run_rules).
-- The same entries, so the indexes are only built again.
DROP INDEX `c_rows_queue`;--> statement-breakpoint
DROP INDEX `c_rows_engine`;--> statement-breakpoint
CREATE INDEX `c_rows_queue` ON `c_rows` ("posted_on" desc,`side`,"src_id" desc,`category`,`state`) WHERE category IS NULL AND (state = 'in books' OR state = 'pending');--> statement-breakpoint
CREATE INDEX `c_rows_engine` ON `c_rows` (`engine`,"posted_on" desc,`side`,"src_id" desc) WHERE (engine = 'human' OR engine = 'model' OR engine = 'tail');