-- Where the daily run fetched a verdict's oracle; null for one filed with record_pnl_parity.
ALTER TABLE `parity_verdicts` ADD `oracle_url` text;