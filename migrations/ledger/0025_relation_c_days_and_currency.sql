-- The books' currency (revisions, the newest stands; none = USD), each line's currency
-- in relation C, and daily figures of relation C per state, category and currency, kept
-- by triggers like c_totals (migration 0013), so the P&L's numbers read a few rows per day.
CREATE TABLE `books_currency` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`currency` text NOT NULL,
	`actor` text NOT NULL,
	`set_at` text NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER books_currency_no_update BEFORE UPDATE ON books_currency
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on books_currency is refused'); END;
--> statement-breakpoint
CREATE TRIGGER books_currency_no_delete BEFORE DELETE ON books_currency
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on books_currency is refused'); END;
--> statement-breakpoint
CREATE TABLE `c_day_totals` (
	`state` text NOT NULL,
	`posted_on` text NOT NULL,
	`queued` integer NOT NULL,
	`category` text NOT NULL,
	`currency` text NOT NULL,
	`lines` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`state`, `category`, `posted_on`, `queued`, `currency`)
) WITHOUT ROWID;
--> statement-breakpoint
ALTER TABLE `c_rows` ADD `currency` text;
--> statement-breakpoint
-- A line's currency is read from the provider's record as it arrived: its
-- iso_currency_code, else its unofficial_currency_code, upper case; null when it names
-- neither (the books take such a line as being in their own currency).
DROP VIEW c_rows_derived;
--> statement-breakpoint
CREATE VIEW c_rows_derived AS
SELECT
  'A' AS side,
  a.id AS src_id,
  a.transaction_id,
  a.account_id,
  a.posted_on,
  a.description,
  a.amount_cents,
  (SELECT d.category FROM decisions d WHERE d.a_id = a.id ORDER BY d.seq DESC LIMIT 1) AS category,
  CASE
    WHEN s.a_id IS NOT NULL THEN 'superseded'
    WHEN r.a_id IS NOT NULL THEN 'retracted'
    WHEN a.pending = 1 THEN 'pending'
    ELSE 'in books'
  END AS state,
  CASE
    WHEN s.a_id IS NOT NULL THEN 'superseded by A:' || s.by_a_id
    WHEN r.a_id IS NOT NULL THEN 'retracted by the bank'
    WHEN a.pending = 1 THEN 'pending'
    ELSE ''
  END AS exclude_reason,
  nullif(upper(trim(coalesce(nullif(trim(a.raw ->> '$.iso_currency_code'), ''), a.raw ->> '$.unofficial_currency_code', ''))), '') AS currency
FROM a_lines a
LEFT JOIN line_events s ON s.a_id = a.id AND s.kind = 'superseded'
LEFT JOIN line_events r ON r.a_id = a.id AND r.kind = 'retracted'
UNION ALL
SELECT
  'B' AS side,
  b.id AS src_id,
  b.transaction_id,
  b.account_id,
  b.posted_on,
  b.description,
  b.amount_cents,
  (SELECT d.category FROM decisions d WHERE d.a_id = b.twin_a_id ORDER BY d.seq DESC LIMIT 1) AS category,
  'archived' AS state,
  'duplicate of A:' || b.twin_a_id AS exclude_reason,
  nullif(upper(trim(coalesce(nullif(trim(b.raw ->> '$.iso_currency_code'), ''), b.raw ->> '$.unofficial_currency_code', ''))), '') AS currency
FROM b_lines b;
--> statement-breakpoint
-- The lines already held: only those whose record names a currency change.
UPDATE c_rows SET currency = (
  SELECT nullif(upper(trim(coalesce(nullif(trim(a.raw ->> '$.iso_currency_code'), ''), a.raw ->> '$.unofficial_currency_code', ''))), '')
  FROM a_lines a WHERE a.id = c_rows.src_id)
WHERE side = 'A' AND src_id IN (SELECT id FROM a_lines WHERE coalesce(raw ->> '$.iso_currency_code', raw ->> '$.unofficial_currency_code') IS NOT NULL);
--> statement-breakpoint
UPDATE c_rows SET currency = (
  SELECT nullif(upper(trim(coalesce(nullif(trim(b.raw ->> '$.iso_currency_code'), ''), b.raw ->> '$.unofficial_currency_code', ''))), '')
  FROM b_lines b WHERE b.id = c_rows.src_id)
WHERE side = 'B' AND src_id IN (SELECT id FROM b_lines WHERE coalesce(raw ->> '$.iso_currency_code', raw ->> '$.unofficial_currency_code') IS NOT NULL);
--> statement-breakpoint
-- The two triggers that write new rows take the currency with the rest (as in 0013 and 0015).
DROP TRIGGER c_rows_on_page_close;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_page_close AFTER INSERT ON feed_page_closes
BEGIN
  INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason, currency)
  SELECT side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason, currency
  FROM c_rows_derived
  WHERE side = 'A' AND src_id > (SELECT coalesce(max(src_id), 0) FROM c_rows WHERE side = 'A');
END;
--> statement-breakpoint
DROP TRIGGER c_rows_on_b_line;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_b_line AFTER INSERT ON b_lines
BEGIN
  INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason, currency)
  VALUES ('B', NEW.id, NEW.transaction_id, NEW.account_id, NEW.posted_on, NEW.description, NEW.amount_cents,
    (SELECT category FROM c_rows WHERE side = 'A' AND src_id = NEW.twin_a_id),
    'archived', 'duplicate of A:' || NEW.twin_a_id,
    nullif(upper(trim(coalesce(nullif(trim(NEW.raw ->> '$.iso_currency_code'), ''), NEW.raw ->> '$.unofficial_currency_code', ''))), ''));
END;
--> statement-breakpoint
-- Daily figures follow every row of C, as c_totals does per account. A row's date, amount
-- and currency never change; the update trigger still takes the old values out and puts
-- the new ones in, so it holds whatever changes.
CREATE TRIGGER c_day_totals_on_insert AFTER INSERT ON c_rows
BEGIN
  INSERT INTO c_day_totals (state, posted_on, queued, category, currency, lines, amount_cents)
  VALUES (NEW.state, NEW.posted_on, NEW.category IS NULL, coalesce(NEW.category, ''), coalesce(NEW.currency, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
CREATE TRIGGER c_day_totals_on_update AFTER UPDATE OF state, category, posted_on, amount_cents, currency ON c_rows
WHEN OLD.state IS NOT NEW.state OR OLD.category IS NOT NEW.category OR OLD.posted_on IS NOT NEW.posted_on
  OR OLD.amount_cents IS NOT NEW.amount_cents OR OLD.currency IS NOT NEW.currency
BEGIN
  UPDATE c_day_totals SET lines = lines - 1, amount_cents = amount_cents - OLD.amount_cents
  WHERE state = OLD.state AND posted_on = OLD.posted_on AND queued = (OLD.category IS NULL)
    AND category = coalesce(OLD.category, '') AND currency = coalesce(OLD.currency, '');
  INSERT INTO c_day_totals (state, posted_on, queued, category, currency, lines, amount_cents)
  VALUES (NEW.state, NEW.posted_on, NEW.category IS NULL, coalesce(NEW.category, ''), coalesce(NEW.currency, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
INSERT INTO c_day_totals (state, posted_on, queued, category, currency, lines, amount_cents)
SELECT state, posted_on, category IS NULL, coalesce(category, ''), coalesce(currency, ''), count(*), sum(amount_cents) FROM c_rows GROUP BY 1, 2, 3, 4, 5;
