ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS parent_symbol_path text[];
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS doc_comment text;
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS symbol_name_qualified text;
ALTER TABLE content_chunks ADD COLUMN IF NOT EXISTS search_vector tsvector;
ALTER TABLE sources ADD COLUMN IF NOT EXISTS chunker_version text;

CREATE OR REPLACE FUNCTION content_chunks_search_vector_update() RETURNS trigger AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.doc_comment, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.symbol_name_qualified, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.chunk_text, '')), 'B');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS content_chunks_search_vector_trigger ON content_chunks;
CREATE TRIGGER content_chunks_search_vector_trigger
  BEFORE INSERT OR UPDATE OF chunk_text, doc_comment, symbol_name_qualified ON content_chunks
  FOR EACH ROW EXECUTE FUNCTION content_chunks_search_vector_update();
CREATE INDEX IF NOT EXISTS content_chunks_search_vector_idx ON content_chunks USING gin (search_vector);

CREATE TABLE IF NOT EXISTS code_edges_chunk (
  id bigserial PRIMARY KEY,
  from_chunk_id bigint NOT NULL REFERENCES content_chunks(id) ON DELETE CASCADE,
  to_chunk_id bigint NOT NULL REFERENCES content_chunks(id) ON DELETE CASCADE,
  edge_type text NOT NULL,
  source_id text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (from_chunk_id, to_chunk_id, edge_type)
);
CREATE INDEX IF NOT EXISTS code_edges_chunk_to_idx ON code_edges_chunk (to_chunk_id);

-- References whose defining chunk has not been seen; read as a union with code_edges_chunk.
CREATE TABLE IF NOT EXISTS code_edges_symbol (
  id bigserial PRIMARY KEY,
  from_chunk_id bigint NOT NULL REFERENCES content_chunks(id) ON DELETE CASCADE,
  to_symbol_qualified text NOT NULL,
  edge_type text NOT NULL,
  source_id text NOT NULL REFERENCES sources(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (from_chunk_id, to_symbol_qualified, edge_type)
);
CREATE INDEX IF NOT EXISTS code_edges_symbol_target_idx ON code_edges_symbol (to_symbol_qualified);
