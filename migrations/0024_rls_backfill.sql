-- requires: rowLevelSecurity
-- Row-level security on the user-data tables. The owner role bypasses it; the permissive
-- policies keep every existing role working until narrower ones are added.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sources', 'pages', 'tags', 'content_chunks', 'links', 'config'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE tablename = t AND policyname = t || '_all') THEN
      EXECUTE format('CREATE POLICY %I ON %I USING (true) WITH CHECK (true)', t || '_all', t);
    END IF;
  END LOOP;
END
$$;
