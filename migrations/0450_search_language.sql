-- The brain-wide text-search configuration (config key 'search.language', default 'english').
-- Triggers and queries read it through this one function, so index and query always agree and
-- both engines run the same SQL. Changing the key needs a re-index of the stored vectors.
CREATE OR REPLACE FUNCTION brain_search_language() RETURNS regconfig AS $$
  SELECT coalesce((SELECT value FROM config WHERE key = 'search.language'), 'english')::regconfig
$$ LANGUAGE sql STABLE;

CREATE OR REPLACE FUNCTION pages_search_vector_update() RETURNS trigger AS $$
DECLARE
  cfg regconfig := brain_search_language();
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector(cfg, coalesce(NEW.title, '')), 'A') ||
    setweight(to_tsvector(cfg, coalesce(NEW.compiled_truth, '')), 'B');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE OR REPLACE FUNCTION content_chunks_search_vector_update() RETURNS trigger AS $$
DECLARE
  cfg regconfig := brain_search_language();
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector(cfg, coalesce(NEW.doc_comment, '')), 'A') ||
    setweight(to_tsvector(cfg, coalesce(NEW.symbol_name_qualified, '')), 'A') ||
    setweight(to_tsvector(cfg, coalesce(NEW.chunk_text, '')), 'B');
  NEW.search_length := search_vector_length(NEW.search_vector);
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
