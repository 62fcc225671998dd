ALTER TABLE pages ADD COLUMN IF NOT EXISTS page_kind text NOT NULL DEFAULT 'markdown';
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'pages_page_kind_check') THEN
    ALTER TABLE pages ADD CONSTRAINT pages_page_kind_check CHECK (page_kind IN ('markdown', 'code'));
  END IF;
END
$$;
CREATE INDEX IF NOT EXISTS pages_page_kind_idx ON pages (page_kind);
