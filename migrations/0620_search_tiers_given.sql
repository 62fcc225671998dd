-- Impact tiers given by the writer. An embedded import works out its chunks' vectors in its own
-- process (migration 0590); from those it now works out their tiers too, by the same two lines as
-- brain_search_tiers, and hands them over for its transaction (brain.search_tiers_given: the
-- configuration they were made for and, by page id and chunk index, each chunk's tiers). Computed
-- here instead, the tiers were a sixth of what a note's chunk cost that import. A chunk whose
-- vector was not given, or a configuration that is not the brain's, gets its tiers here as before.
CREATE OR REPLACE FUNCTION search_chunks_insert() RETURNS trigger AS $$
DECLARE
  given jsonb;
BEGIN
  IF current_setting('brain.search_vectors_given', true) = 'on' THEN
    given := nullif(current_setting('brain.search_tiers_given', true), '')::jsonb;
    IF given ->> 'config' IS DISTINCT FROM brain_search_language()::text THEN
      given := NULL;
    END IF;
  END IF;
  INSERT INTO search_chunks (chunk_id, page_id, chunk_index, slug, source_id, language, symbol_type, search_vector, search_length, search_tiers)
  SELECT w.id, w.page_id, w.chunk_index, w.slug, w.source_id, w.language, w.symbol_type, w.search_vector, w.search_length,
    coalesce((given -> 'tiers' ->> (w.page_id || ':' || w.chunk_index))::tsvector, brain_search_tiers(w.search_vector, w.search_length, w.slug))
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
