-- By-name call edges are looked up by the callee's last name segment (a call `q.submit()` is a
-- caller of `Queue.submit` and of `submit`). Edges also name the definition they leave and, for
-- chunk edges, the one they reach: a chunk may hold several small definitions.
ALTER TABLE code_edges_symbol ADD COLUMN IF NOT EXISTS to_symbol_name text;
ALTER TABLE code_edges_symbol ADD COLUMN IF NOT EXISTS from_symbol text;
ALTER TABLE code_edges_chunk ADD COLUMN IF NOT EXISTS from_symbol text;
ALTER TABLE code_edges_chunk ADD COLUMN IF NOT EXISTS to_symbol text;
UPDATE code_edges_symbol SET to_symbol_name = regexp_replace(to_symbol_qualified, '^.*[.:]', '') WHERE to_symbol_name IS NULL;
CREATE INDEX IF NOT EXISTS code_edges_symbol_name_idx ON code_edges_symbol (to_symbol_name);
CREATE INDEX IF NOT EXISTS links_origin_idx ON links (origin_page_id) WHERE origin_page_id IS NOT NULL;

-- Every definition of a code page, including those sharing a merged chunk with their siblings.
CREATE TABLE IF NOT EXISTS code_symbols (
  id bigserial PRIMARY KEY,
  page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  chunk_id bigint NOT NULL REFERENCES content_chunks(id) ON DELETE CASCADE,
  name text NOT NULL,
  qualified text NOT NULL,
  symbol_type text NOT NULL,
  start_line integer NOT NULL,
  end_line integer NOT NULL
);
CREATE INDEX IF NOT EXISTS code_symbols_name_idx ON code_symbols (name);
CREATE INDEX IF NOT EXISTS code_symbols_qualified_idx ON code_symbols (qualified);
CREATE INDEX IF NOT EXISTS code_symbols_page_idx ON code_symbols (page_id);
CREATE INDEX IF NOT EXISTS code_symbols_chunk_idx ON code_symbols (chunk_id);
