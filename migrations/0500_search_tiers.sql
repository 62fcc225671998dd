-- Impact tiers: which of a chunk's words carry most of its BM25 weight, so that a search of a
-- word found in a third of all chunks can rank the few hundred where the word weighs most and
-- prove that no other chunk could have made the page (src/search/tiers.ts holds the proof).
--
-- A lexeme with term frequency tf in a chunk of length len is in tier 1 when
--   tf >= 4 * (0.3 + 0.009 * len)            (weight tf / (tf + K) >= 0.8)
-- and else in tier 2 when
--   tf >= 7/3 * (0.3 + 0.009 * len)          (weight >= 0.7)
-- where K = 0.3 + 0.009 * len is BM25's saturation with k1 = 1.2, b = 0.75 and a reference
-- average length of 100. The query side derives its bounds from these two lines only, so they
-- stay valid whatever the corpus' real average length or the ranking's k1 and b.
-- Lexemes without positions always count as tier 1: being listed too often is safe, missing is not.
-- Each '/'-terminated prefix of the slug is listed too ('p~notes/'), so that a boosted folder's
-- chunks can be reached through the same index.
CREATE OR REPLACE FUNCTION brain_search_tiers(vector tsvector, len integer, slug text) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  saturation float8 := 0.3 + 0.009 * len;
  entries text[];
  parts text[] := string_to_array(slug, '/');
BEGIN
  -- One aggregate over the vector: a row-by-row loop cost half as much again.
  SELECT coalesce(array_agg(CASE WHEN s.tf >= 4 * saturation THEN '1~' ELSE '2~' END || s.lexeme), '{}') INTO entries
  FROM (SELECT u.lexeme, coalesce(array_length(u.positions, 1), 1000000) AS tf
        FROM unnest(vector) AS u WHERE octet_length(u.lexeme) <= 1000) AS s
  WHERE 3 * s.tf >= 7 * saturation;
  FOR i IN 1 .. coalesce(array_length(parts, 1), 0) - 1 LOOP
    IF octet_length(array_to_string(parts[1:i], '/')) <= 1000 THEN
      entries := entries || ('p~' || array_to_string(parts[1:i], '/') || '/');
    END IF;
  END LOOP;
  RETURN array_to_tsvector(entries);
END
$$;

ALTER TABLE search_chunks ADD COLUMN IF NOT EXISTS search_tiers tsvector;
UPDATE search_chunks SET search_tiers = brain_search_tiers(search_vector, search_length, slug) WHERE search_tiers IS NULL;
ALTER TABLE search_chunks ALTER COLUMN search_tiers SET NOT NULL;
-- A small pending list, as every GIN index here (0260): searches scan the list in full.
CREATE INDEX IF NOT EXISTS search_chunks_tiers_idx ON search_chunks USING gin (search_tiers) WITH (gin_pending_list_limit = 256);

CREATE OR REPLACE FUNCTION search_chunks_insert() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_chunks (chunk_id, page_id, chunk_index, slug, source_id, language, symbol_type, search_vector, search_length, search_tiers)
  SELECT w.id, w.page_id, w.chunk_index, w.slug, w.source_id, w.language, w.symbol_type, w.search_vector, w.search_length,
    brain_search_tiers(w.search_vector, w.search_length, w.slug)
  FROM (
    SELECT n.id, n.page_id, n.chunk_index, p.slug, p.source_id, n.language, n.symbol_type, n.search_vector,
      coalesce(n.search_length, search_vector_length(n.search_vector)) AS search_length
    FROM new_rows n JOIN pages p ON p.id = n.page_id
    WHERE n.search_vector IS NOT NULL
  ) AS w
  ON CONFLICT (chunk_id) DO NOTHING;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION search_chunks_update() RETURNS trigger AS $$
BEGIN
  DELETE FROM search_chunks s USING new_rows n
  WHERE s.chunk_id = n.id AND n.search_vector IS NULL;
  INSERT INTO search_chunks AS s (chunk_id, page_id, chunk_index, slug, source_id, language, symbol_type, search_vector, search_length, search_tiers)
  SELECT w.id, w.page_id, w.chunk_index, w.slug, w.source_id, w.language, w.symbol_type, w.search_vector, w.search_length,
    brain_search_tiers(w.search_vector, w.search_length, w.slug)
  FROM (
    SELECT n.id, n.page_id, n.chunk_index, p.slug, p.source_id, n.language, n.symbol_type, n.search_vector,
      coalesce(n.search_length, search_vector_length(n.search_vector)) AS search_length
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN pages p ON p.id = n.page_id
    WHERE n.search_vector IS NOT NULL
      AND (n.search_vector IS DISTINCT FROM o.search_vector OR n.search_length IS DISTINCT FROM o.search_length
        OR n.page_id IS DISTINCT FROM o.page_id OR n.chunk_index IS DISTINCT FROM o.chunk_index
        OR n.language IS DISTINCT FROM o.language OR n.symbol_type IS DISTINCT FROM o.symbol_type)
  ) AS w
  ON CONFLICT (chunk_id) DO UPDATE SET page_id = EXCLUDED.page_id, chunk_index = EXCLUDED.chunk_index,
    slug = EXCLUDED.slug, source_id = EXCLUDED.source_id, language = EXCLUDED.language,
    symbol_type = EXCLUDED.symbol_type, search_vector = EXCLUDED.search_vector, search_length = EXCLUDED.search_length,
    search_tiers = EXCLUDED.search_tiers;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- The folder entries follow the slug.
CREATE OR REPLACE FUNCTION search_chunks_page_moved() RETURNS trigger AS $$
BEGIN
  UPDATE search_chunks s SET slug = NEW.slug, source_id = NEW.source_id,
    search_tiers = brain_search_tiers(s.search_vector, s.search_length, NEW.slug)
  FROM content_chunks c
  WHERE c.page_id = NEW.id AND s.chunk_id = c.id;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
