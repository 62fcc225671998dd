-- Page history: every overwritten markdown content is kept as a numbered version, and a deleted
-- page moves whole into the trash. Neither table references pages: a trashed page keeps its
-- versions, and a restore puts the page back under its old id.

-- Who wrote a page's current content and through what; unlike ingested_via these are set on
-- every write, so the version they become records its own writer.
ALTER TABLE pages ADD COLUMN IF NOT EXISTS written_via text;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS written_by text;
-- Lines the current content added and removed against the content before it; a version keeps
-- them, so listing a history never diffs.
ALTER TABLE pages ADD COLUMN IF NOT EXISTS lines_added integer;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS lines_removed integer;

CREATE TABLE IF NOT EXISTS page_versions (
  page_id bigint NOT NULL,
  number integer NOT NULL,
  source_id text NOT NULL,
  slug text NOT NULL,
  -- The content as the page row held it; read back, it is serialised as an export writes it.
  title text NOT NULL,
  type text NOT NULL,
  page_kind text NOT NULL,
  frontmatter jsonb NOT NULL,
  compiled_truth text NOT NULL,
  timeline text NOT NULL,
  tags text[] NOT NULL,
  content_hash text NOT NULL,
  -- When this content was written, and by what; replaced_at is when it stopped being current.
  written_at timestamptz NOT NULL,
  written_via text,
  written_by text,
  replaced_at timestamptz NOT NULL DEFAULT now(),
  -- Bytes of the body (compiled truth and timeline).
  bytes integer NOT NULL,
  -- Line changes against the version before it.
  lines_added integer NOT NULL DEFAULT 0,
  lines_removed integer NOT NULL DEFAULT 0,
  PRIMARY KEY (page_id, number)
);
CREATE INDEX IF NOT EXISTS page_versions_source_idx ON page_versions (source_id);

CREATE TABLE IF NOT EXISTS page_trash (
  id bigserial PRIMARY KEY,
  page_id bigint NOT NULL,
  source_id text NOT NULL,
  slug text NOT NULL,
  title text NOT NULL,
  type text NOT NULL,
  page_kind text NOT NULL,
  bytes bigint NOT NULL DEFAULT 0,
  deleted_at timestamptz NOT NULL DEFAULT now(),
  deleted_via text,
  deleted_by text,
  -- The page row and every row that hangs off it, as to_jsonb wrote them.
  snapshot jsonb NOT NULL
);
CREATE INDEX IF NOT EXISTS page_trash_slug_idx ON page_trash (slug);
CREATE INDEX IF NOT EXISTS page_trash_deleted_at_idx ON page_trash (deleted_at);
