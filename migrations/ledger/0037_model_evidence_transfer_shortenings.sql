-- The local model reads the banks' shortenings of "transfer" (`Internet Trf To DDA 4559`,
-- `XFR`, `TFR`, `TRNSFR`) as it reads the word, so such a line's four closing digits are the
-- other account's last four (`#4559`): the line keys kept before are not the keys it computes
-- now. Its evidence is a cache of the ledger: dropped here, it is learnt afresh from the
-- ledger at the first need.
DELETE FROM `model_examples`;--> statement-breakpoint
DELETE FROM `model_lines`;--> statement-breakpoint
DELETE FROM `model_state`;
