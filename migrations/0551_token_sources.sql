-- requires: httpServer
-- A token may be limited to one source: it then reaches only the operations that read and write
-- a single named source (recall, remember), and only that source. NULL: every source.
ALTER TABLE access_tokens ADD COLUMN IF NOT EXISTS source_id text;
