-- Plain-text notes (`.txt`, `.rst`, `.org`, `.adoc`) are now imported beside markdown. A source
-- synced before has its bookmark past the commits that added such files, so an incremental sync
-- would pick up only those that change from now on. Clearing the recorded chunker version makes
-- the next sync of every source that imports notes walk its whole tree, as a strategy change
-- does: the new files are imported, and the others are skipped by their unchanged content.
UPDATE sources SET chunker_version = NULL
WHERE coalesce(config->>'strategy', 'markdown') <> 'code' AND chunker_version IS NOT NULL;
