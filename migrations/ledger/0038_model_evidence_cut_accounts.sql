-- The local model reads the one to three digits that close a transfer cut by its bank's width
-- (`Withdrawal Transfer To COHEN 763`) as what the line shows of the other account (`#763`),
-- so the line keys kept before are not the keys it computes now. Its evidence is a cache of
-- the ledger: dropped here, it is learnt afresh from the ledger at the first need.
DELETE FROM `model_examples`;--> statement-breakpoint
DELETE FROM `model_lines`;--> statement-breakpoint
DELETE FROM `model_state`;
