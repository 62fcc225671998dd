-- Vector search compares only vectors of the active model; hybrid search first asks whether any
-- exist. This partial index answers that without scanning the chunks.
CREATE INDEX IF NOT EXISTS content_chunks_embedded_model_idx ON content_chunks (model) WHERE embedding IS NOT NULL;
