-- Each row of relation C is in exactly one of its two category indexes, by whether it has a
-- category: a line's first decision writes one entry and drops one, where an index of every
-- row by category moved its entry (a delete and an insert) besides dropping it from the
-- queue's. The queue's index takes every row with no category (the queue label's list reads
-- it too); the exceptions queue's states are columns of its entries.
DROP INDEX `c_rows_category`;--> statement-breakpoint
DROP INDEX `c_rows_queue`;--> statement-breakpoint
CREATE INDEX `c_rows_category` ON `c_rows` (`category`,"posted_on" desc,`side`,"src_id" desc) WHERE category IS NOT NULL;--> statement-breakpoint
CREATE INDEX `c_rows_queue` ON `c_rows` ("posted_on" desc,`side`,"src_id" desc,`category`,`state`) WHERE category IS NULL;