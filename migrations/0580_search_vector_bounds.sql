-- A tsvector holds at most 1 MiB, so a page whose text has that many distinct words (a long log,
-- a table of identifiers, an export of hashes) could not be stored at all: the trigger failed
-- with "string is too long for tsvector". The page-level vector now reads the first 256 KiB of
-- the text, which cannot grow past the limit (each byte of text yields at most about four bytes
-- of vector); every word of the page stays searchable through its chunks, which are indexed whole.

CREATE OR REPLACE FUNCTION pages_search_vector_update() RETURNS trigger AS $$
DECLARE
  cfg regconfig := brain_search_language();
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector(cfg, brain_search_text(left(coalesce(NEW.title, ''), 4096))), 'A') ||
    setweight(to_tsvector(cfg, brain_search_text(left(coalesce(NEW.compiled_truth, ''), 262144))), 'B');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;
