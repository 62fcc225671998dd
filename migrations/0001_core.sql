-- The core of a brain: sources, pages, tags, chunks, links and key/value config.
CREATE EXTENSION IF NOT EXISTS vector;

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

CREATE TABLE IF NOT EXISTS pages (
  id bigserial PRIMARY KEY,
  source_id text NOT NULL DEFAULT 'default' REFERENCES sources(id) ON DELETE CASCADE,
  slug text NOT NULL,
  title text NOT NULL DEFAULT '',
  type text NOT NULL DEFAULT 'note',
  compiled_truth text NOT NULL DEFAULT '',
  timeline text NOT NULL DEFAULT '',
  frontmatter jsonb NOT NULL DEFAULT '{}'::jsonb,
  content_hash text NOT NULL DEFAULT '',
  search_vector tsvector,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Older brains made slugs unique on their own; a slug is unique per source now.
ALTER TABLE pages DROP CONSTRAINT IF EXISTS pages_slug_key;
CREATE UNIQUE INDEX IF NOT EXISTS pages_source_slug_key ON pages (source_id, slug);
CREATE INDEX IF NOT EXISTS pages_slug_idx ON pages (slug);
CREATE INDEX IF NOT EXISTS pages_type_idx ON pages (type);
CREATE INDEX IF NOT EXISTS pages_updated_at_idx ON pages (updated_at);
CREATE INDEX IF NOT EXISTS pages_search_vector_idx ON pages USING gin (search_vector);

CREATE OR REPLACE FUNCTION pages_search_vector_update() RETURNS trigger AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.compiled_truth, '')), 'B');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS pages_search_vector_trigger ON pages;
CREATE TRIGGER pages_search_vector_trigger
  BEFORE INSERT OR UPDATE OF title, compiled_truth ON pages
  FOR EACH ROW EXECUTE FUNCTION pages_search_vector_update();

CREATE TABLE IF NOT EXISTS tags (
  page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  tag text NOT NULL,
  PRIMARY KEY (page_id, tag)
);
CREATE INDEX IF NOT EXISTS tags_tag_idx ON tags (tag);

CREATE TABLE IF NOT EXISTS content_chunks (
  id bigserial PRIMARY KEY,
  page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  chunk_index integer NOT NULL,
  chunk_text text NOT NULL,
  chunk_source text NOT NULL DEFAULT 'compiled_truth',
  embedding vector(1536),
  embedded_at timestamptz,
  token_count integer NOT NULL DEFAULT 0,
  model text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS content_chunks_page_index_key ON content_chunks (page_id, chunk_index);

CREATE TABLE IF NOT EXISTS links (
  id bigserial PRIMARY KEY,
  from_page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  to_page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  link_type text NOT NULL DEFAULT 'references',
  link_source text,
  origin_page_id text,
  origin_field text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX IF NOT EXISTS links_edge_key ON links (from_page_id, to_page_id, link_type);
CREATE INDEX IF NOT EXISTS links_to_page_idx ON links (to_page_id);

CREATE TABLE IF NOT EXISTS config (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
