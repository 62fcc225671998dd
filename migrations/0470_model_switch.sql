-- Vectors of the model a brain is switching to. They are computed beside the active model's
-- vectors, which search keeps using, and replace them in one transaction once every chunk has
-- one; a chunk whose text changed meanwhile (text_md5) is embedded again first.
CREATE TABLE IF NOT EXISTS chunk_embeddings_next (
  chunk_id bigint PRIMARY KEY REFERENCES content_chunks(id) ON DELETE CASCADE,
  model text NOT NULL,
  text_md5 text NOT NULL,
  embedding vector(1536) NOT NULL
);

-- The queue behind `brain models use`; create_queue does nothing when it exists.
SELECT brain_queue.create_queue('switch-model', json_build_object('policy', 'standard'));
