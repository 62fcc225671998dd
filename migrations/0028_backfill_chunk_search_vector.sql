-- Chunks written before the trigger existed get their vector once; rows that have one are left alone.
UPDATE content_chunks
SET search_vector =
  setweight(to_tsvector('english', coalesce(doc_comment, '')), 'A') ||
  setweight(to_tsvector('english', coalesce(symbol_name_qualified, '')), 'A') ||
  setweight(to_tsvector('english', coalesce(chunk_text, '')), 'B')
WHERE search_vector IS NULL;
