-- What recall has already volunteered inside one conversation (an agent's session id), so that
-- a page is not repeated turn after turn. An item is a page id, or a page id and a symbol for a
-- code definition. Rows expire, and recall prunes them as it records new ones.
CREATE TABLE IF NOT EXISTS memory_session_pages (
  session_id text NOT NULL,
  source_id text NOT NULL,
  item text NOT NULL,
  volunteered_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (session_id, source_id, item)
);
CREATE INDEX IF NOT EXISTS memory_session_pages_expires_idx ON memory_session_pages (expires_at);
