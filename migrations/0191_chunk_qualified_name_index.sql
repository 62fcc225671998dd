-- code-def of a qualified name (`Queue.submit`) on a page imported before the definition index
-- existed matches the chunk's qualified name: indexed, so it is not a scan of every chunk.
CREATE INDEX IF NOT EXISTS content_chunks_symbol_qualified_idx ON content_chunks (symbol_name_qualified)
  WHERE symbol_name_qualified IS NOT NULL;
