ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS language text;
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS symbol_name text;
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS symbol_type text;
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS start_line integer;
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS end_line integer;
CREATE INDEX IF NOT EXISTS content_chunks_language_idx ON content_chunks (language) WHERE language IS NOT NULL;
CREATE INDEX IF NOT EXISTS content_chunks_symbol_name_idx ON content_chunks (symbol_name) WHERE symbol_name IS NOT NULL;
