-- Sync state beside the sources table.
--
-- sync_locks: one row per source while a sync (or a source removal) runs on it. A row, not an
-- advisory lock, because the database seam has no session pinned to one connection, and a row
-- can name its holder in the refusal. heartbeat_at is refreshed while the holder works; a row
-- whose heartbeat is old, or whose holder process on the same host is gone, is taken over.
CREATE TABLE IF NOT EXISTS sync_locks (
  source_id text PRIMARY KEY,
  token text NOT NULL,
  holder text NOT NULL,
  pid integer NOT NULL,
  hostname text NOT NULL,
  acquired_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);

-- sync_failures: files that failed to import at a commit the bookmark has moved past. They are
-- reported with every sync of the source and retried by the next sync that does any work.
CREATE TABLE IF NOT EXISTS sync_failures (
  source_id text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  path text NOT NULL,
  commit_sha text,
  error_class text NOT NULL,
  error_code text NOT NULL,
  message text NOT NULL,
  attempts integer NOT NULL DEFAULT 1,
  first_failed_at timestamptz NOT NULL DEFAULT now(),
  last_failed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source_id, path)
);
