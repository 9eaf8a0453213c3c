-- The local model reads a transfer's four closing digits as the other account's last four
-- (`TRANSFER WITHDRAWAL 7636` keeps `#7636`), so the line keys kept before are not the keys it
-- computes now. Its evidence is a cache of the ledger: dropped here, it is learnt afresh from the
-- ledger at the first need.
DELETE FROM `model_examples`;--> statement-breakpoint
DELETE FROM `model_lines`;--> statement-breakpoint
DELETE FROM `model_state`;
