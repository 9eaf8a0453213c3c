-- Relation C is kept as a table, maintained by triggers, because deriving it on every
-- read costs a scan of the books. The derivation stays, renamed, as its definition: the
-- tests and the soak hold the kept copy equal to it. Both kept tables are stored
-- WITHOUT ROWID, by their keys (drizzle cannot say so; the schema names the same keys).
DROP VIEW c_rows;
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
  END AS exclude_reason
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
  'duplicate of A:' || b.twin_a_id AS exclude_reason
FROM b_lines b;
--> statement-breakpoint
CREATE TABLE `c_rows` (
	`side` text NOT NULL,
	`src_id` integer NOT NULL,
	`transaction_id` text NOT NULL,
	`account_id` text NOT NULL,
	`posted_on` text NOT NULL,
	`description` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`category` text,
	`state` text NOT NULL,
	`exclude_reason` text NOT NULL,
	PRIMARY KEY(`side`, `src_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `c_rows_order` ON `c_rows` ("posted_on" desc,`side`,"src_id" desc,`state`,`amount_cents`);--> statement-breakpoint
CREATE INDEX `c_rows_category` ON `c_rows` (`category`,"posted_on" desc,`side`,"src_id" desc);--> statement-breakpoint
CREATE TABLE `c_totals` (
	`account_id` text NOT NULL,
	`state` text NOT NULL,
	`queued` integer NOT NULL,
	`category` text NOT NULL,
	`lines` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	PRIMARY KEY(`account_id`, `state`, `queued`, `category`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Running figures per account, state and category follow every row of C.
CREATE TRIGGER c_totals_on_insert AFTER INSERT ON c_rows
BEGIN
  INSERT INTO c_totals (account_id, state, queued, category, lines, amount_cents)
  VALUES (NEW.account_id, NEW.state, NEW.category IS NULL, coalesce(NEW.category, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
CREATE TRIGGER c_totals_on_update AFTER UPDATE OF state, category ON c_rows
WHEN OLD.state IS NOT NEW.state OR OLD.category IS NOT NEW.category
BEGIN
  UPDATE c_totals SET lines = lines - 1, amount_cents = amount_cents - OLD.amount_cents
  WHERE account_id = OLD.account_id AND state = OLD.state AND queued = (OLD.category IS NULL) AND category = coalesce(OLD.category, '');
  INSERT INTO c_totals (account_id, state, queued, category, lines, amount_cents)
  VALUES (NEW.account_id, NEW.state, NEW.category IS NULL, coalesce(NEW.category, ''), 1, NEW.amount_cents)
  ON CONFLICT DO UPDATE SET lines = lines + 1, amount_cents = amount_cents + excluded.amount_cents;
END;
--> statement-breakpoint
CREATE TRIGGER c_rows_never_deleted BEFORE DELETE ON c_rows
BEGIN SELECT RAISE(ABORT, 'relation C: a line never leaves it'); END;
--> statement-breakpoint
INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason) SELECT side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason FROM c_rows_derived;
--> statement-breakpoint
-- Every fact updates the rows it touches, in the statement that appends it. A new A line
-- has no events and no decisions yet (their ids come after it), so its row is its own.
CREATE TRIGGER c_rows_on_a_line AFTER INSERT ON a_lines
BEGIN
  INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason)
  VALUES ('A', NEW.id, NEW.transaction_id, NEW.account_id, NEW.posted_on, NEW.description, NEW.amount_cents, NULL,
    CASE WHEN NEW.pending = 1 THEN 'pending' ELSE 'in books' END,
    CASE WHEN NEW.pending = 1 THEN 'pending' ELSE '' END);
END;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_b_line AFTER INSERT ON b_lines
BEGIN
  INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason)
  VALUES ('B', NEW.id, NEW.transaction_id, NEW.account_id, NEW.posted_on, NEW.description, NEW.amount_cents,
    (SELECT category FROM c_rows WHERE side = 'A' AND src_id = NEW.twin_a_id),
    'archived', 'duplicate of A:' || NEW.twin_a_id);
END;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_line_event AFTER INSERT ON line_events
BEGIN
  UPDATE c_rows SET (state, exclude_reason) =
    (SELECT state, exclude_reason FROM c_rows_derived WHERE side = 'A' AND src_id = NEW.a_id)
  WHERE side = 'A' AND src_id = NEW.a_id;
END;
--> statement-breakpoint
-- A line's category is its latest decision (the new one: op numbers only grow); its B
-- twins show the same. Few lines have twins, so their update waits behind a cheap test
-- (an IN over a subquery costs a temporary table on every decision).
CREATE TRIGGER c_rows_on_decision AFTER INSERT ON decisions
BEGIN
  UPDATE c_rows SET category = NEW.category WHERE side = 'A' AND src_id = NEW.a_id;
END;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_decision_for_twins AFTER INSERT ON decisions
WHEN EXISTS (SELECT 1 FROM b_lines WHERE twin_a_id = NEW.a_id)
BEGIN
  UPDATE c_rows SET category = NEW.category
  WHERE side = 'B' AND src_id IN (SELECT id FROM b_lines WHERE twin_a_id = NEW.a_id);
END;
