-- Approximate nearest-neighbour search over chunk embeddings (cosine distance).
CREATE INDEX IF NOT EXISTS content_chunks_embedding_hnsw_idx
  ON content_chunks USING hnsw (embedding vector_cosine_ops);
CREATE INDEX IF NOT EXISTS content_chunks_stale_idx ON content_chunks (page_id) WHERE embedding IS NULL;
