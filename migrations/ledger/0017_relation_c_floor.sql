-- The running figures of the rows before a tenant's paid floor, so that a face with the
-- floor reads c_totals minus these instead of summing every row before it. The ledger
-- learns the floor from the first read that needs it (src/ledger/books.ts); until then
-- c_floor is empty and the triggers below keep nothing.
CREATE TABLE `c_floor` (
	`floor` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `c_floor_totals` (
	`account_id` text NOT NULL,
	`state` text NOT NULL,
	`queued` integer NOT NULL,
	`category` text NOT NULL,
	`lines` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`account_id`, `state`, `queued`, `category`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER c_floor_totals_on_insert AFTER INSERT ON c_rows
WHEN NEW.posted_on < (SELECT floor FROM c_floor)
BEGIN
  INSERT INTO c_floor_totals (account_id, state, queued, category, lines, amount_cents)
  VALUES (NEW.account_id, NEW.state, NEW.category IS NULL, coalesce(NEW.category, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
CREATE TRIGGER c_floor_totals_on_update AFTER UPDATE OF state, category ON c_rows
WHEN OLD.posted_on < (SELECT floor FROM c_floor) AND (OLD.state IS NOT NEW.state OR OLD.category IS NOT NEW.category)
BEGIN
  UPDATE c_floor_totals SET lines = lines - 1, amount_cents = amount_cents - OLD.amount_cents
  WHERE account_id = OLD.account_id AND state = OLD.state AND queued = (OLD.category IS NULL) AND category = coalesce(OLD.category, '');
  INSERT INTO c_floor_totals (account_id, state, queued, category, lines, amount_cents)
  VALUES (NEW.account_id, NEW.state, NEW.category IS NULL, coalesce(NEW.category, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
