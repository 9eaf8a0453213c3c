-- Each row of relation C says what decided its line (its latest decision's engine; a side-B
-- row, its twin's), and the daily figures are kept per engine too: the workspace's search
-- by engine reads its totals from them, and its pages of the engines that decide fewer
-- lines than the rules from a partial index.
ALTER TABLE `c_rows` ADD `engine` text;
--> statement-breakpoint
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
  nullif(upper(trim(coalesce(nullif(trim(a.raw ->> '$.iso_currency_code'), ''), a.raw ->> '$.unofficial_currency_code', ''))), '') AS currency,
  (SELECT d.engine FROM decisions d WHERE d.a_id = a.id ORDER BY d.seq DESC LIMIT 1) AS engine
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
  nullif(upper(trim(coalesce(nullif(trim(b.raw ->> '$.iso_currency_code'), ''), b.raw ->> '$.unofficial_currency_code', ''))), '') AS currency,
  (SELECT d.engine FROM decisions d WHERE d.a_id = b.twin_a_id ORDER BY d.seq DESC LIMIT 1) AS engine
FROM b_lines b;
--> statement-breakpoint
-- The lines already decided: each one's latest decision, by the decisions' line index.
UPDATE c_rows SET engine = (SELECT d.engine FROM decisions d WHERE d.a_id = c_rows.src_id ORDER BY d.seq DESC LIMIT 1)
WHERE side = 'A' AND src_id IN (SELECT a_id FROM decisions);
--> statement-breakpoint
UPDATE c_rows SET engine = (SELECT d.engine FROM decisions d WHERE d.a_id = (SELECT twin_a_id FROM b_lines WHERE id = c_rows.src_id) ORDER BY d.seq DESC LIMIT 1)
WHERE side = 'B';
--> statement-breakpoint
CREATE INDEX `c_rows_engine` ON `c_rows` (`engine`,"posted_on" desc,`side`,"src_id" desc) WHERE engine IN ('human', 'model', 'tail');
--> statement-breakpoint
-- The daily figures again, keyed by engine last, filled from the rows (the triggers below
-- keep them from here on).
DROP TRIGGER c_day_totals_on_insert;
--> statement-breakpoint
DROP TRIGGER c_day_totals_on_update;
--> statement-breakpoint
DROP TABLE `c_day_totals`;
--> statement-breakpoint
CREATE TABLE `c_day_totals` (
	`state` text NOT NULL,
	`posted_on` text NOT NULL,
	`queued` integer NOT NULL,
	`category` text NOT NULL,
	`currency` text NOT NULL,
	`engine` text NOT NULL,
	`lines` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`state`, `category`, `posted_on`, `queued`, `currency`, `engine`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO c_day_totals (state, posted_on, queued, category, currency, engine, lines, amount_cents)
SELECT state, posted_on, category IS NULL, coalesce(category, ''), coalesce(currency, ''), coalesce(engine, ''), count(*), sum(amount_cents) FROM c_rows GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
CREATE TRIGGER c_day_totals_on_insert AFTER INSERT ON c_rows
BEGIN
  INSERT INTO c_day_totals (state, posted_on, queued, category, currency, engine, lines, amount_cents)
  VALUES (NEW.state, NEW.posted_on, NEW.category IS NULL, coalesce(NEW.category, ''), coalesce(NEW.currency, ''), coalesce(NEW.engine, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
CREATE TRIGGER c_day_totals_on_update AFTER UPDATE OF state, category, posted_on, amount_cents, currency, engine ON c_rows
WHEN OLD.state IS NOT NEW.state OR OLD.category IS NOT NEW.category OR OLD.posted_on IS NOT NEW.posted_on
  OR OLD.amount_cents IS NOT NEW.amount_cents OR OLD.currency IS NOT NEW.currency OR OLD.engine IS NOT NEW.engine
BEGIN
  UPDATE c_day_totals SET lines = lines - 1, amount_cents = amount_cents - OLD.amount_cents
  WHERE state = OLD.state AND posted_on = OLD.posted_on AND queued = (OLD.category IS NULL)
    AND category = coalesce(OLD.category, '') AND currency = coalesce(OLD.currency, '') AND engine = coalesce(OLD.engine, '');
  INSERT INTO c_day_totals (state, posted_on, queued, category, currency, engine, lines, amount_cents)
  VALUES (NEW.state, NEW.posted_on, NEW.category IS NULL, coalesce(NEW.category, ''), coalesce(NEW.currency, ''), coalesce(NEW.engine, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
-- The triggers that write rows or their category write the engine with them (as in 0013 and 0025).
DROP TRIGGER c_rows_on_page_close;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_page_close AFTER INSERT ON feed_page_closes
BEGIN
  INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason, currency, engine)
  SELECT side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason, currency, engine
  FROM c_rows_derived
  WHERE side = 'A' AND src_id > (SELECT coalesce(max(src_id), 0) FROM c_rows WHERE side = 'A');
END;
--> statement-breakpoint
DROP TRIGGER c_rows_on_b_line;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_b_line AFTER INSERT ON b_lines
BEGIN
  INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason, currency, engine)
  VALUES ('B', NEW.id, NEW.transaction_id, NEW.account_id, NEW.posted_on, NEW.description, NEW.amount_cents,
    (SELECT category FROM c_rows WHERE side = 'A' AND src_id = NEW.twin_a_id),
    'archived', 'duplicate of A:' || NEW.twin_a_id,
    nullif(upper(trim(coalesce(nullif(trim(NEW.raw ->> '$.iso_currency_code'), ''), NEW.raw ->> '$.unofficial_currency_code', ''))), ''),
    (SELECT engine FROM c_rows WHERE side = 'A' AND src_id = NEW.twin_a_id));
END;
--> statement-breakpoint
DROP TRIGGER c_rows_on_decision;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_decision AFTER INSERT ON decisions
BEGIN
  UPDATE c_rows SET category = NEW.category, engine = NEW.engine WHERE side = 'A' AND src_id = NEW.a_id;
END;
--> statement-breakpoint
DROP TRIGGER c_rows_on_decision_for_twins;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_decision_for_twins AFTER INSERT ON decisions
WHEN EXISTS (SELECT 1 FROM b_lines WHERE twin_a_id = NEW.a_id)
BEGIN
  UPDATE c_rows SET category = NEW.category, engine = NEW.engine
  WHERE side = 'B' AND src_id IN (SELECT id FROM b_lines WHERE twin_a_id = NEW.a_id);
END;
