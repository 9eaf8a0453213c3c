CREATE TABLE `feed_page_closes` (
	`page_id` integer PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TRIGGER feed_page_closes_no_update BEFORE UPDATE ON feed_page_closes
BEGIN SELECT RAISE(ABORT, 'append-only ledger: UPDATE on feed_page_closes is refused'); END;
--> statement-breakpoint
CREATE TRIGGER feed_page_closes_no_delete BEFORE DELETE ON feed_page_closes
BEGIN SELECT RAISE(ABORT, 'append-only ledger: DELETE on feed_page_closes is refused'); END;
--> statement-breakpoint
-- A side-A line enters relation C when its page closes, not when it is appended: the
-- rules and the local model decide a page's new lines first, in the same transaction, so
-- each row is written once, with its category, instead of written bare and then moved in
-- the category index and the running figures. The rows still come from the definition
-- (c_rows_derived): a line superseded, retracted or given a twin within its own page
-- enters as it stands. Lines are appended in id order and every page is closed, so the
-- lines to add are exactly those after relation C's newest side-A row.
DROP TRIGGER c_rows_on_a_line;
--> statement-breakpoint
CREATE TRIGGER c_rows_on_page_close AFTER INSERT ON feed_page_closes
BEGIN
  INSERT INTO c_rows (side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason)
  SELECT side, src_id, transaction_id, account_id, posted_on, description, amount_cents, category, state, exclude_reason
  FROM c_rows_derived
  WHERE side = 'A' AND src_id > (SELECT coalesce(max(src_id), 0) FROM c_rows WHERE side = 'A');
END;
