-- What keyword ranking reads, one narrow row per chunk that has a search vector: the vector, its
-- length and every column the search filters and the source boost look at, the page's slug and
-- source included. Ranking a common word reads thousands of candidates; from content_chunks each
-- one was a wide row (text, embedding pointer, code metadata) joined to its page, which cost more
-- than the scoring itself. Kept exact by triggers in the writer's own transaction.
CREATE TABLE IF NOT EXISTS search_chunks (
  chunk_id bigint PRIMARY KEY REFERENCES content_chunks(id) ON DELETE CASCADE,
  page_id bigint NOT NULL,
  chunk_index integer NOT NULL,
  slug text NOT NULL,
  source_id text NOT NULL,
  language text,
  symbol_type text,
  search_vector tsvector NOT NULL,
  search_length integer NOT NULL
);
CREATE INDEX IF NOT EXISTS search_chunks_vector_idx ON search_chunks USING gin (search_vector);

CREATE OR REPLACE FUNCTION search_chunks_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_chunks (chunk_id, page_id, chunk_index, slug, source_id, language, symbol_type, search_vector, search_length)
  SELECT n.id, n.page_id, n.chunk_index, p.slug, p.source_id, n.language, n.symbol_type, n.search_vector,
    coalesce(n.search_length, search_vector_length(n.search_vector))
  FROM new_rows n JOIN pages p ON p.id = n.page_id
  WHERE n.search_vector IS NOT NULL
  ON CONFLICT (chunk_id) DO NOTHING;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- Updates that touch none of the copied columns (embeddings, timestamps) cost one join of the
-- transition tables and no write.
CREATE OR REPLACE FUNCTION search_chunks_update() RETURNS trigger AS $$
BEGIN
  DELETE FROM search_chunks s USING new_rows n
  WHERE s.chunk_id = n.id AND n.search_vector IS NULL;
  INSERT INTO search_chunks AS s (chunk_id, page_id, chunk_index, slug, source_id, language, symbol_type, search_vector, search_length)
  SELECT n.id, n.page_id, n.chunk_index, p.slug, p.source_id, n.language, n.symbol_type, n.search_vector,
    coalesce(n.search_length, search_vector_length(n.search_vector))
  FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN pages p ON p.id = n.page_id
  WHERE n.search_vector IS NOT NULL
    AND (n.search_vector IS DISTINCT FROM o.search_vector OR n.search_length IS DISTINCT FROM o.search_length
      OR n.page_id IS DISTINCT FROM o.page_id OR n.chunk_index IS DISTINCT FROM o.chunk_index
      OR n.language IS DISTINCT FROM o.language OR n.symbol_type IS DISTINCT FROM o.symbol_type)
  ON CONFLICT (chunk_id) DO UPDATE SET page_id = EXCLUDED.page_id, chunk_index = EXCLUDED.chunk_index,
    slug = EXCLUDED.slug, source_id = EXCLUDED.source_id, language = EXCLUDED.language,
    symbol_type = EXCLUDED.symbol_type, search_vector = EXCLUDED.search_vector, search_length = EXCLUDED.search_length;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- A page that moves (new slug or source) carries its chunks' rows along.
CREATE OR REPLACE FUNCTION search_chunks_page_moved() RETURNS trigger AS $$
BEGIN
  UPDATE search_chunks s SET slug = NEW.slug, source_id = NEW.source_id
  FROM content_chunks c
  WHERE c.page_id = NEW.id AND s.chunk_id = c.id;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS search_chunks_insert_trigger ON content_chunks;
CREATE TRIGGER search_chunks_insert_trigger AFTER INSERT ON content_chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_chunks_insert();
DROP TRIGGER IF EXISTS search_chunks_update_trigger ON content_chunks;
CREATE TRIGGER search_chunks_update_trigger AFTER UPDATE ON content_chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_chunks_update();
DROP TRIGGER IF EXISTS search_chunks_page_moved_trigger ON pages;
CREATE TRIGGER search_chunks_page_moved_trigger AFTER UPDATE OF slug, source_id ON pages
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug OR OLD.source_id IS DISTINCT FROM NEW.source_id)
  EXECUTE FUNCTION search_chunks_page_moved();

-- Existing chunks (idempotent), then the chunk table's own full-text index goes: nothing else
-- searches it, and keeping both would double the index work of every chunk written.
INSERT INTO search_chunks (chunk_id, page_id, chunk_index, slug, source_id, language, symbol_type, search_vector, search_length)
SELECT c.id, c.page_id, c.chunk_index, p.slug, p.source_id, c.language, c.symbol_type, c.search_vector,
  coalesce(c.search_length, search_vector_length(c.search_vector))
FROM content_chunks c JOIN pages p ON p.id = c.page_id
WHERE c.search_vector IS NOT NULL
ON CONFLICT (chunk_id) DO NOTHING;
DROP INDEX IF EXISTS content_chunks_search_vector_idx;
ANALYZE search_chunks;
