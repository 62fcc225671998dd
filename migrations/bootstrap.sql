-- Runs before pending migrations on a brain whose `pages` table already exists. A brain made by
-- an older release may lack columns the migrations reference; each statement adds what is
-- missing and is a no-op otherwise.
CREATE TABLE IF NOT EXISTS sources (
  id text PRIMARY KEY,
  name text NOT NULL,
  local_path text,
  last_commit text,
  config jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO sources (id, name) VALUES ('default', 'default') ON CONFLICT (id) DO NOTHING;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS source_id text NOT NULL DEFAULT 'default';
ALTER TABLE pages ADD COLUMN IF NOT EXISTS frontmatter jsonb NOT NULL DEFAULT '{}'::jsonb;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS timeline text NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN IF NOT EXISTS content_hash text NOT NULL DEFAULT '';
ALTER TABLE pages ADD COLUMN IF NOT EXISTS search_vector tsvector;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS created_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE pages ADD COLUMN IF NOT EXISTS updated_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE pages ADD COLUMN IF NOT EXISTS ingested_via text;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS ingested_at timestamptz;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS source_uri text;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS source_kind text;
DO $$
BEGIN
  IF to_regclass('links') IS NOT NULL THEN
    ALTER TABLE links ADD COLUMN IF NOT EXISTS link_source text;
    ALTER TABLE links ADD COLUMN IF NOT EXISTS origin_page_id text;
    ALTER TABLE links ADD COLUMN IF NOT EXISTS origin_field text;
  END IF;
  IF to_regclass('content_chunks') IS NOT NULL THEN
    ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS language text;
    ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS symbol_name text;
    ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS symbol_type text;
    ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS start_line integer;
    ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS end_line integer;
    ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS model text;
    ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS chunk_source text NOT NULL DEFAULT 'compiled_truth';
  END IF;
END
$$;
