-- The words of relation C: every row's description in a trigram index, so `q` (a
-- case-insensitive substring) finds its candidates without reading every row. Keyed by
-- src_id * 2 + (side = 'B'); a description never changes, so a row is indexed once.
-- The reads still check each candidate with the exact rule (instr over lower()).
CREATE VIRTUAL TABLE c_words USING fts5(description, tokenize = 'trigram');
--> statement-breakpoint
INSERT INTO c_words (rowid, description) SELECT src_id * 2 + (side = 'B'), description FROM c_rows;
--> statement-breakpoint
CREATE TRIGGER c_words_on_row AFTER INSERT ON c_rows
BEGIN
  INSERT INTO c_words (rowid, description) VALUES (NEW.src_id * 2 + (NEW.side = 'B'), NEW.description);
END;
