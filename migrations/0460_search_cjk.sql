-- CJK text in keyword search. PostgreSQL's parser reads a run of Han, kana or Hangul characters
-- as one word, so a word inside a sentence was never found. Text is passed through
-- brain_search_text() before it is indexed and before a query is parsed: each such run becomes
-- its overlapping two-character pieces ("知识库" → "知识 识库"; a lone character stays), so any
-- word of two or more characters matches the pieces it is made of, in order for a phrase. Text
-- without CJK passes through unchanged, so other languages index exactly as before.

CREATE OR REPLACE FUNCTION brain_search_text(t text) RETURNS text AS $$
  SELECT CASE
    WHEN t IS NULL OR t !~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]' THEN t
    ELSE (
      SELECT string_agg(
        CASE WHEN m.part ~ '^[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+$'
          THEN (SELECT string_agg(substr(m.part, i, 2), ' ' ORDER BY i) FROM generate_series(1, greatest(length(m.part) - 1, 1)) AS i)
          ELSE m.part
        END, ' ' ORDER BY m.n)
      FROM (
        SELECT r[1] AS part, n
        FROM regexp_matches(t, '([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+|[^\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+)', 'g') WITH ORDINALITY AS x(r, n)
      ) m
    )
  END
$$ LANGUAGE sql IMMUTABLE;

CREATE OR REPLACE FUNCTION pages_search_vector_update() RETURNS trigger AS $$
DECLARE
  cfg regconfig := brain_search_language();
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector(cfg, brain_search_text(coalesce(NEW.title, ''))), 'A') ||
    setweight(to_tsvector(cfg, brain_search_text(coalesce(NEW.compiled_truth, ''))), 'B');
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
    setweight(to_tsvector(cfg, brain_search_text(coalesce(NEW.chunk_text, ''))), 'B');
  NEW.search_length := search_vector_length(NEW.search_vector);
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

-- Chunks and pages indexed before hold their CJK runs as single words: index them again.
UPDATE content_chunks SET chunk_text = chunk_text WHERE chunk_text ~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]';
UPDATE pages SET compiled_truth = compiled_truth WHERE compiled_truth ~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]' OR title ~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]';
