-- code-refs matches a case-insensitive substring of a code chunk's text without its header line
-- (`ILIKE '%symbol%'`). A trigram index on exactly that expression, for code chunks only, turns
-- the scan over every chunk into an index lookup. Where pg_trgm cannot be installed (no contrib
-- package on the server, or no right to create extensions) the migration leaves the index out
-- and code-refs keeps scanning: same answers, slower.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm')
     AND EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
  END IF;
EXCEPTION WHEN insufficient_privilege THEN
  RAISE NOTICE 'pg_trgm not installed (%); code-refs scans chunk text', SQLERRM;
END
$$;

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE $sql$
      CREATE INDEX IF NOT EXISTS content_chunks_code_body_trgm_idx ON content_chunks
        USING gin ((substr(chunk_text, strpos(chunk_text, E'\n') + 1)) gin_trgm_ops)
        WHERE chunk_source = 'code'
    $sql$;
  END IF;
END
$$;
