-- A GIN index buffers new entries in a pending list that every search scans linearly, and merges
-- it into the index only when it outgrows gin_pending_list_limit (4 MB by default) or at vacuum.
-- The embedded engine never autovacuums, so after an import up to 4 MB stayed pending for good:
-- on a 50,000-chunk brain that cost each trigram or full-text lookup about 11 ms of a 12 ms
-- index scan. A 256 kB list keeps that scan under a millisecond; merging in smaller batches did
-- not change the import time measurably. New GIN indexes declare the same limit.
DO $$
DECLARE ix regclass;
BEGIN
  FOR ix IN
    SELECT i.indexrelid::regclass FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
    WHERE a.amname = 'gin' AND c.relnamespace = current_schema()::regnamespace
  LOOP
    EXECUTE format('ALTER INDEX %s SET (gin_pending_list_limit = 256)', ix);
    PERFORM gin_clean_pending_list(ix);
  END LOOP;
END
$$;
