-- Calendar-month figures per state follow every row of C, as c_totals does per category
-- (migration 0013). A row's date and amount never change; the update trigger still takes
-- the old values out and puts the new ones in, so it holds whatever changes.
CREATE TABLE `c_month_totals` (
	`month` text NOT NULL,
	`state` text NOT NULL,
	`lines` integer NOT NULL,
	`money_in_cents` integer NOT NULL,
	`money_out_cents` integer NOT NULL,
	PRIMARY KEY(`month`, `state`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER c_month_totals_on_insert AFTER INSERT ON c_rows
BEGIN
  INSERT INTO c_month_totals (month, state, lines, money_in_cents, money_out_cents)
  VALUES (substr(NEW.posted_on, 1, 7), NEW.state, 1, max(NEW.amount_cents, 0), max(-NEW.amount_cents, 0))
  ON CONFLICT DO UPDATE SET lines = lines + 1, money_in_cents = money_in_cents + excluded.money_in_cents,
    money_out_cents = money_out_cents + excluded.money_out_cents;
END;
--> statement-breakpoint
CREATE TRIGGER c_month_totals_on_update AFTER UPDATE OF state, posted_on, amount_cents ON c_rows
WHEN OLD.state IS NOT NEW.state OR OLD.posted_on IS NOT NEW.posted_on OR OLD.amount_cents IS NOT NEW.amount_cents
BEGIN
  UPDATE c_month_totals SET lines = lines - 1, money_in_cents = money_in_cents - max(OLD.amount_cents, 0),
    money_out_cents = money_out_cents - max(-OLD.amount_cents, 0)
  WHERE month = substr(OLD.posted_on, 1, 7) AND state = OLD.state;
  INSERT INTO c_month_totals (month, state, lines, money_in_cents, money_out_cents)
  VALUES (substr(NEW.posted_on, 1, 7), NEW.state, 1, max(NEW.amount_cents, 0), max(-NEW.amount_cents, 0))
  ON CONFLICT DO UPDATE SET lines = lines + 1, money_in_cents = money_in_cents + excluded.money_in_cents,
    money_out_cents = money_out_cents + excluded.money_out_cents;
END;
--> statement-breakpoint
INSERT INTO c_month_totals (month, state, lines, money_in_cents, money_out_cents)
SELECT substr(posted_on, 1, 7), state, count(*), sum(max(amount_cents, 0)), sum(max(-amount_cents, 0)) FROM c_rows GROUP BY 1, 2;
