-- run-rules moves thousands of rows of relation C from the queue to a category at once.
-- Kept row by row, that is six figure writes per line, most of the run's cost; a slice's
-- lines share a few days and categories, so while `c_figures_by_batch` holds its row
-- (books/machine-decisions.ts) the figure triggers stand aside for side-A rows, and the
-- slice writes each moved figure once, from the rows it read (their side-B twins, few,
-- are still kept here). The mark is held only inside the slice's transaction.
CREATE TABLE `c_figures_by_batch` (
	`held` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
DROP TRIGGER c_totals_on_update;
--> statement-breakpoint
CREATE TRIGGER c_totals_on_update AFTER UPDATE OF state, category ON c_rows
WHEN (OLD.state IS NOT NEW.state OR OLD.category IS NOT NEW.category)
  AND (NEW.side = 'B' OR NOT EXISTS (SELECT 1 FROM c_figures_by_batch))
BEGIN
  UPDATE c_totals SET lines = lines - 1, amount_cents = amount_cents - OLD.amount_cents
  WHERE account_id = OLD.account_id AND state = OLD.state AND queued = (OLD.category IS NULL) AND category = coalesce(OLD.category, '');
  INSERT INTO c_totals (account_id, state, queued, category, lines, amount_cents)
  VALUES (NEW.account_id, NEW.state, NEW.category IS NULL, coalesce(NEW.category, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
DROP TRIGGER c_floor_totals_on_update;
--> statement-breakpoint
CREATE TRIGGER c_floor_totals_on_update AFTER UPDATE OF state, category ON c_rows
WHEN OLD.posted_on < (SELECT floor FROM c_floor) AND (OLD.state IS NOT NEW.state OR OLD.category IS NOT NEW.category)
  AND (NEW.side = 'B' OR NOT EXISTS (SELECT 1 FROM c_figures_by_batch))
BEGIN
  UPDATE c_floor_totals SET lines = lines - 1, amount_cents = amount_cents - OLD.amount_cents
  WHERE account_id = OLD.account_id AND state = OLD.state AND queued = (OLD.category IS NULL) AND category = coalesce(OLD.category, '');
  INSERT INTO c_floor_totals (account_id, state, queued, category, lines, amount_cents)
  VALUES (NEW.account_id, NEW.state, NEW.category IS NULL, coalesce(NEW.category, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
DROP TRIGGER c_day_totals_on_update;
--> statement-breakpoint
CREATE TRIGGER c_day_totals_on_update AFTER UPDATE OF state, category, posted_on, amount_cents, currency, engine ON c_rows
WHEN (OLD.state IS NOT NEW.state OR OLD.category IS NOT NEW.category OR OLD.posted_on IS NOT NEW.posted_on
  OR OLD.amount_cents IS NOT NEW.amount_cents OR OLD.currency IS NOT NEW.currency OR OLD.engine IS NOT NEW.engine)
  AND (NEW.side = 'B' OR NOT EXISTS (SELECT 1 FROM c_figures_by_batch))
BEGIN
  UPDATE c_day_totals SET lines = lines - 1, amount_cents = amount_cents - OLD.amount_cents
  WHERE state = OLD.state AND posted_on = OLD.posted_on AND queued = (OLD.category IS NULL)
    AND category = coalesce(OLD.category, '') AND currency = coalesce(OLD.currency, '') AND engine = coalesce(OLD.engine, '');
  INSERT INTO c_day_totals (state, posted_on, queued, category, currency, engine, lines, amount_cents)
  VALUES (NEW.state, NEW.posted_on, NEW.category IS NULL, coalesce(NEW.category, ''), coalesce(NEW.currency, ''), coalesce(NEW.engine, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
