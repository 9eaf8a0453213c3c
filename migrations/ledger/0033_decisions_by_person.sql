-- A person's decisions made just now (not carried from a superseded line), by op number:
-- the local model reads those since its marks before every page it decides, and after a
-- run of the rules they are a handful among a hundred thousand of the rules'.
CREATE INDEX `decisions_by_person` ON `decisions` (`seq`) WHERE engine = 'human' AND carried_from_a_id IS NULL;