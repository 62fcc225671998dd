-- Full-text vectors worked out beside the write. Parsing text into a tsvector is most of what a
-- bulk import costs the embedded engine, whose one thread also runs every other statement. The
-- vector expressions of the two triggers become functions of their own, so that an import can
-- compute the vectors of its next batch with these very functions on another engine of the same
-- build (a second PGLite on another core, or another connection of the server) and store them.
-- The triggers keep a vector given at insert only when the writer says, for its transaction, that
-- it computed them so (brain.search_vectors_given); every other write, a restore from the trash
-- included, is parsed here as before.

CREATE OR REPLACE FUNCTION brain_chunk_search_vector(cfg regconfig, doc_comment text, symbol_name_qualified text, chunk_text text) RETURNS tsvector AS $$
  SELECT setweight(to_tsvector(cfg, coalesce(doc_comment, '')), 'A') ||
    setweight(to_tsvector(cfg, coalesce(symbol_name_qualified, '')), 'A') ||
    setweight(to_tsvector(cfg, brain_search_text(coalesce(chunk_text, ''))), 'B')
$$ LANGUAGE sql IMMUTABLE;

CREATE OR REPLACE FUNCTION brain_page_search_vector(cfg regconfig, title text, compiled_truth text) RETURNS tsvector AS $$
  SELECT setweight(to_tsvector(cfg, brain_search_text(left(coalesce(title, ''), 4096))), 'A') ||
    setweight(to_tsvector(cfg, brain_search_text(left(coalesce(compiled_truth, ''), 262144))), 'B')
$$ LANGUAGE sql IMMUTABLE;

-- The language is read once into a variable: passed as brain_search_language() itself, an
-- argument used three times, the functions above would not be inlined and each row would run them
-- as separate SQL function calls.
CREATE OR REPLACE FUNCTION content_chunks_search_vector_update() RETURNS trigger AS $$
DECLARE
  cfg regconfig;
BEGIN
  IF TG_OP = 'INSERT' AND NEW.search_vector IS NOT NULL AND NEW.search_length IS NOT NULL
     AND current_setting('brain.search_vectors_given', true) = 'on' THEN
    RETURN NEW;
  END IF;
  cfg := brain_search_language();
  NEW.search_vector := brain_chunk_search_vector(cfg, NEW.doc_comment, NEW.symbol_name_qualified, NEW.chunk_text);
  NEW.search_length := search_vector_length(NEW.search_vector);
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION pages_search_vector_update() RETURNS trigger AS $$
DECLARE
  cfg regconfig;
BEGIN
  IF TG_OP = 'INSERT' AND NEW.search_vector IS NOT NULL AND current_setting('brain.search_vectors_given', true) = 'on' THEN
    RETURN NEW;
  END IF;
  cfg := brain_search_language();
  NEW.search_vector := brain_page_search_vector(cfg, NEW.title, NEW.compiled_truth);
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
