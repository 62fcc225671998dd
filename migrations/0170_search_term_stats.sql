-- Term statistics for BM25 keyword ranking: the length of every chunk's search_vector (lexeme
-- occurrences), the number of chunks each lexeme occurs in, and the corpus totals. Kept exact by
-- statement-level triggers, so every writer (import, sync, direct SQL) updates them in its own
-- transaction, once per statement rather than once per row.
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS search_length integer;

CREATE TABLE IF NOT EXISTS search_lexeme_stats (
  lexeme text PRIMARY KEY,
  chunk_count bigint NOT NULL
);

CREATE TABLE IF NOT EXISTS search_corpus_stats (
  id integer PRIMARY KEY CHECK (id = 1),
  chunk_count bigint NOT NULL,
  total_length bigint NOT NULL
);

-- Occurrences of lexemes in a search vector (a lexeme without positions counts once).
CREATE OR REPLACE FUNCTION search_vector_length(v tsvector) RETURNS integer AS $$
  SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)::integer FROM unnest(v) AS u
$$ LANGUAGE sql IMMUTABLE;

CREATE OR REPLACE FUNCTION content_chunks_search_vector_update() RETURNS trigger AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.doc_comment, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.symbol_name_qualified, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.chunk_text, '')), 'B');
  NEW.search_length := search_vector_length(NEW.search_vector);
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

-- Applies +1 per lexeme of every added vector and -1 per lexeme of every removed one. Lexemes
-- are upserted in sorted order so that concurrent writers lock shared rows in the same order.
CREATE OR REPLACE FUNCTION search_stats_apply(added tsvector[], removed tsvector[], added_length bigint, removed_length bigint) RETURNS void AS $$
BEGIN
  IF coalesce(cardinality(added), 0) = 0 AND coalesce(cardinality(removed), 0) = 0 THEN
    RETURN;
  END IF;
  INSERT INTO search_lexeme_stats AS s (lexeme, chunk_count)
  SELECT d.lexeme, sum(d.delta)
  FROM (
    SELECT l AS lexeme, 1 AS delta FROM unnest(coalesce(added, '{}')) AS v, unnest(tsvector_to_array(v)) AS l
    UNION ALL
    SELECT l, -1 FROM unnest(coalesce(removed, '{}')) AS v, unnest(tsvector_to_array(v)) AS l
  ) d
  GROUP BY d.lexeme
  HAVING sum(d.delta) <> 0
  ORDER BY d.lexeme
  ON CONFLICT (lexeme) DO UPDATE SET chunk_count = s.chunk_count + EXCLUDED.chunk_count;
  INSERT INTO search_corpus_stats AS s (id, chunk_count, total_length)
  VALUES (1, coalesce(cardinality(added), 0) - coalesce(cardinality(removed), 0), added_length - removed_length)
  ON CONFLICT (id) DO UPDATE SET chunk_count = s.chunk_count + EXCLUDED.chunk_count, total_length = s.total_length + EXCLUDED.total_length;
END
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION content_chunks_stats_insert() RETURNS trigger AS $$
BEGIN
  PERFORM search_stats_apply(
    (SELECT array_agg(search_vector) FROM new_rows WHERE search_vector IS NOT NULL), NULL,
    (SELECT coalesce(sum(search_length), 0) FROM new_rows WHERE search_vector IS NOT NULL), 0);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION content_chunks_stats_delete() RETURNS trigger AS $$
BEGIN
  PERFORM search_stats_apply(
    NULL, (SELECT array_agg(search_vector) FROM old_rows WHERE search_vector IS NOT NULL),
    0, (SELECT coalesce(sum(search_length), 0) FROM old_rows WHERE search_vector IS NOT NULL));
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- Updates that leave the vector alone (embeddings, metadata) change nothing here.
CREATE OR REPLACE FUNCTION content_chunks_stats_update() RETURNS trigger AS $$
BEGIN
  PERFORM search_stats_apply(
    (SELECT array_agg(n.search_vector) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.search_vector IS DISTINCT FROM o.search_vector AND n.search_vector IS NOT NULL),
    (SELECT array_agg(o.search_vector) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.search_vector IS DISTINCT FROM o.search_vector AND o.search_vector IS NOT NULL),
    (SELECT coalesce(sum(n.search_length), 0) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.search_vector IS DISTINCT FROM o.search_vector AND n.search_vector IS NOT NULL),
    (SELECT coalesce(sum(o.search_length), 0) FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE n.search_vector IS DISTINCT FROM o.search_vector AND o.search_vector IS NOT NULL));
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS content_chunks_stats_insert_trigger ON content_chunks;
CREATE TRIGGER content_chunks_stats_insert_trigger AFTER INSERT ON content_chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_chunks_stats_insert();
DROP TRIGGER IF EXISTS content_chunks_stats_update_trigger ON content_chunks;
CREATE TRIGGER content_chunks_stats_update_trigger AFTER UPDATE ON content_chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION content_chunks_stats_update();
DROP TRIGGER IF EXISTS content_chunks_stats_delete_trigger ON content_chunks;
CREATE TRIGGER content_chunks_stats_delete_trigger AFTER DELETE ON content_chunks
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION content_chunks_stats_delete();

-- Existing chunks: lengths, then the statistics rebuilt from scratch (idempotent).
UPDATE content_chunks SET search_length = search_vector_length(search_vector)
WHERE search_length IS NULL AND search_vector IS NOT NULL;
DELETE FROM search_lexeme_stats;
INSERT INTO search_lexeme_stats (lexeme, chunk_count)
SELECT l, count(*) FROM content_chunks c, unnest(tsvector_to_array(c.search_vector)) AS l GROUP BY l;
INSERT INTO search_corpus_stats (id, chunk_count, total_length)
SELECT 1, count(*), coalesce(sum(search_length), 0) FROM content_chunks WHERE search_vector IS NOT NULL
ON CONFLICT (id) DO UPDATE SET chunk_count = EXCLUDED.chunk_count, total_length = EXCLUDED.total_length;
