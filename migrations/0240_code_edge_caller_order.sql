-- The callers walk answers in (file, line) order of the calling definition and stops at its
-- limit. A common name has thousands of callers by name (every `new UsageError(…)`), and looking
-- up each one's page and definition line only to sort them cost most of a walk. Each edge now
-- carries its caller's slug and line: the calling definition's first line, or its chunk's when
-- the call sits in top-level code.
ALTER TABLE code_edges_symbol ADD COLUMN IF NOT EXISTS from_slug text;
ALTER TABLE code_edges_symbol ADD COLUMN IF NOT EXISTS from_line integer;
ALTER TABLE code_edges_chunk ADD COLUMN IF NOT EXISTS from_slug text;
ALTER TABLE code_edges_chunk ADD COLUMN IF NOT EXISTS from_line integer;

-- The import writes both columns itself; any other writer (the engine's addCodeEdges, a bulk
-- copy) gets them looked up here. The WHEN clause spares the import the function call.
-- The caller's line: its definition's first line, else its chunk's; the trigger and the backfill
-- below share it (the import computes the same from its own payload).
CREATE OR REPLACE FUNCTION code_edge_caller_line(chunk_id bigint, symbol text, chunk_start integer) RETURNS integer AS $$
  SELECT coalesce((SELECT min(cs.start_line) FROM code_symbols cs WHERE cs.chunk_id = $1 AND cs.qualified = $2), $3)
$$ LANGUAGE sql STABLE;

CREATE OR REPLACE FUNCTION code_edge_caller_order() RETURNS trigger AS $$
BEGIN
  SELECT p.slug, code_edge_caller_line(NEW.from_chunk_id, NEW.from_symbol, c.start_line)
  INTO NEW.from_slug, NEW.from_line
  FROM content_chunks c JOIN pages p ON p.id = c.page_id
  WHERE c.id = NEW.from_chunk_id;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS code_edges_symbol_caller_order ON code_edges_symbol;
CREATE TRIGGER code_edges_symbol_caller_order BEFORE INSERT ON code_edges_symbol
  FOR EACH ROW WHEN (NEW.from_slug IS NULL) EXECUTE FUNCTION code_edge_caller_order();
DROP TRIGGER IF EXISTS code_edges_chunk_caller_order ON code_edges_chunk;
CREATE TRIGGER code_edges_chunk_caller_order BEFORE INSERT ON code_edges_chunk
  FOR EACH ROW WHEN (NEW.from_slug IS NULL) EXECUTE FUNCTION code_edge_caller_order();

-- A page that moves carries its outgoing edges along. Lines change only when the page is
-- re-imported, and the import rewrites every edge leaving it.
CREATE OR REPLACE FUNCTION code_edges_page_moved() RETURNS trigger AS $$
BEGIN
  UPDATE code_edges_symbol s SET from_slug = NEW.slug
  FROM content_chunks c WHERE c.page_id = NEW.id AND s.from_chunk_id = c.id;
  UPDATE code_edges_chunk e SET from_slug = NEW.slug
  FROM content_chunks c WHERE c.page_id = NEW.id AND e.from_chunk_id = c.id;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS code_edges_page_moved_trigger ON pages;
CREATE TRIGGER code_edges_page_moved_trigger AFTER UPDATE OF slug ON pages
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug) EXECUTE FUNCTION code_edges_page_moved();

-- Existing edges (idempotent: only rows not filled yet).
UPDATE code_edges_symbol s SET from_slug = p.slug,
  from_line = code_edge_caller_line(s.from_chunk_id, s.from_symbol, c.start_line)
FROM content_chunks c JOIN pages p ON p.id = c.page_id
WHERE c.id = s.from_chunk_id AND s.from_slug IS NULL;
UPDATE code_edges_chunk e SET from_slug = p.slug,
  from_line = code_edge_caller_line(e.from_chunk_id, e.from_symbol, c.start_line)
FROM content_chunks c JOIN pages p ON p.id = c.page_id
WHERE c.id = e.from_chunk_id AND e.from_slug IS NULL;

-- A level reads each name's callers in that order and stops at its limit; the index replaces the
-- one on the name alone, which it also serves.
CREATE INDEX IF NOT EXISTS code_edges_symbol_caller_order_idx
  ON code_edges_symbol (to_symbol_name, from_slug, from_line, from_chunk_id, from_symbol, edge_type);
DROP INDEX IF EXISTS code_edges_symbol_name_idx;
