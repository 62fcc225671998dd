-- code-refs matches a case-insensitive substring of a code chunk's body (its text after the
-- header line). A symbol made only of [A-Za-z0-9_] lowers to [a-z0-9_] only, so it can only
-- occur inside one maximal run of those characters of the lowered body: a body matches exactly
-- when one of its words (such runs) contains the lowered symbol. This table holds, for every
-- code chunk of a code page (the rows code-refs answers from), its distinct words in one text
-- separated by spaces, beside the columns code-refs orders by: a walk in answer order tests a
-- narrow row with one strpos instead of lowering the whole chunk text, and a GIN index over the
-- word list finds the chunks holding any of a set of words. The words are computed here, with the
-- database's own lower(), the one ILIKE applies. Kept exact by triggers in the writer's
-- transaction.
CREATE OR REPLACE FUNCTION code_body_words(chunk_text text) RETURNS text AS $$
  SELECT coalesce(string_agg(DISTINCT w, ' ' ORDER BY w), '')
  FROM regexp_split_to_table(lower(substr(chunk_text, strpos(chunk_text, E'\n') + 1)),
                             '[^0123456789abcdefghijklmnopqrstuvwxyz_]+') w
  WHERE w <> ''
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;

CREATE TABLE IF NOT EXISTS code_chunk_words (
  chunk_id bigint PRIMARY KEY REFERENCES content_chunks(id) ON DELETE CASCADE,
  slug text NOT NULL,
  start_line integer,
  chunk_index integer NOT NULL,
  language text,
  words text NOT NULL
);

-- Every word some code chunk held, to expand a symbol into the words that contain it. Words are
-- added as chunks are written and never removed: a word no chunk holds any more only widens the
-- expansion by one entry that matches no row, so the answers stay exact while writers never
-- contend over counts. New words are inserted in sorted order, so that concurrent writers adding
-- the same words wait on them in the same order.
CREATE TABLE IF NOT EXISTS code_words (word text PRIMARY KEY);

-- The vocabulary words containing `s` (lowered, word characters only), at most `cap` + 1 of them
-- so a caller can tell the cap was passed. Through the trigram index even when the planner
-- estimates a scan of a small vocabulary cheaper (the default estimate of a '%…%' pattern is far
-- above the one or two words it finds): on PGLite the scan of 5,000 words cost 0.9 ms, the index
-- 0.1 ms.
CREATE OR REPLACE FUNCTION code_words_containing(s text, cap integer) RETURNS text[] AS $$
  SELECT array_agg(word) FROM (
    SELECT word FROM code_words WHERE word LIKE '%' || replace(s, '_', '\_') || '%' LIMIT cap + 1) v
$$ LANGUAGE sql STABLE SET enable_seqscan = off;

CREATE OR REPLACE FUNCTION code_chunk_words_insert() RETURNS trigger AS $$
BEGIN
  WITH added AS (
    INSERT INTO code_chunk_words (chunk_id, slug, start_line, chunk_index, language, words)
    SELECT n.id, p.slug, n.start_line, n.chunk_index, n.language, code_body_words(n.chunk_text)
    FROM new_rows n JOIN pages p ON p.id = n.page_id
    WHERE p.page_kind = 'code' AND n.chunk_source = 'code'
    ON CONFLICT (chunk_id) DO NOTHING
    RETURNING words)
  INSERT INTO code_words (word)
  SELECT DISTINCT w FROM added, unnest(string_to_array(words, ' ')) w ORDER BY w
  ON CONFLICT (word) DO NOTHING;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- Updates that touch none of the copied columns (embeddings, timestamps) cost one join of the
-- transition tables and no write.
CREATE OR REPLACE FUNCTION code_chunk_words_update() RETURNS trigger AS $$
BEGIN
  DELETE FROM code_chunk_words k USING new_rows n JOIN pages p ON p.id = n.page_id
  WHERE k.chunk_id = n.id AND NOT (p.page_kind = 'code' AND n.chunk_source = 'code');
  WITH changed AS (
    INSERT INTO code_chunk_words AS k (chunk_id, slug, start_line, chunk_index, language, words)
    SELECT n.id, p.slug, n.start_line, n.chunk_index, n.language, code_body_words(n.chunk_text)
    FROM new_rows n JOIN old_rows o ON o.id = n.id JOIN pages p ON p.id = n.page_id
    WHERE p.page_kind = 'code' AND n.chunk_source = 'code'
      AND (n.chunk_text IS DISTINCT FROM o.chunk_text OR n.page_id IS DISTINCT FROM o.page_id
        OR n.chunk_index IS DISTINCT FROM o.chunk_index OR n.start_line IS DISTINCT FROM o.start_line
        OR n.language IS DISTINCT FROM o.language OR n.chunk_source IS DISTINCT FROM o.chunk_source)
    ON CONFLICT (chunk_id) DO UPDATE SET slug = EXCLUDED.slug, start_line = EXCLUDED.start_line,
      chunk_index = EXCLUDED.chunk_index, language = EXCLUDED.language, words = EXCLUDED.words
    RETURNING k.words)
  INSERT INTO code_words (word)
  SELECT DISTINCT w FROM changed, unnest(string_to_array(words, ' ')) w ORDER BY w
  ON CONFLICT (word) DO NOTHING;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- A page that moves carries its chunks' rows along; one that stops or starts being a code page
-- drops or gains them.
CREATE OR REPLACE FUNCTION code_chunk_words_page_changed() RETURNS trigger AS $$
BEGIN
  IF NEW.page_kind IS DISTINCT FROM 'code' THEN
    DELETE FROM code_chunk_words k USING content_chunks c WHERE c.page_id = NEW.id AND k.chunk_id = c.id;
  ELSIF OLD.page_kind IS DISTINCT FROM 'code' THEN
    WITH added AS (
      INSERT INTO code_chunk_words (chunk_id, slug, start_line, chunk_index, language, words)
      SELECT c.id, NEW.slug, c.start_line, c.chunk_index, c.language, code_body_words(c.chunk_text)
      FROM content_chunks c WHERE c.page_id = NEW.id AND c.chunk_source = 'code'
      ON CONFLICT (chunk_id) DO NOTHING
      RETURNING words)
    INSERT INTO code_words (word)
    SELECT DISTINCT w FROM added, unnest(string_to_array(words, ' ')) w ORDER BY w
    ON CONFLICT (word) DO NOTHING;
  ELSE
    UPDATE code_chunk_words k SET slug = NEW.slug
    FROM content_chunks c WHERE c.page_id = NEW.id AND k.chunk_id = c.id;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS code_chunk_words_insert_trigger ON content_chunks;
CREATE TRIGGER code_chunk_words_insert_trigger AFTER INSERT ON content_chunks
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION code_chunk_words_insert();
DROP TRIGGER IF EXISTS code_chunk_words_update_trigger ON content_chunks;
CREATE TRIGGER code_chunk_words_update_trigger AFTER UPDATE ON content_chunks
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION code_chunk_words_update();
DROP TRIGGER IF EXISTS code_chunk_words_page_changed_trigger ON pages;
CREATE TRIGGER code_chunk_words_page_changed_trigger AFTER UPDATE OF slug, page_kind ON pages
  FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug OR OLD.page_kind IS DISTINCT FROM NEW.page_kind)
  EXECUTE FUNCTION code_chunk_words_page_changed();

-- Existing code chunks (idempotent).
INSERT INTO code_chunk_words (chunk_id, slug, start_line, chunk_index, language, words)
SELECT c.id, p.slug, c.start_line, c.chunk_index, c.language, code_body_words(c.chunk_text)
FROM content_chunks c JOIN pages p ON p.id = c.page_id
WHERE p.page_kind = 'code' AND c.chunk_source = 'code'
ON CONFLICT (chunk_id) DO NOTHING;
INSERT INTO code_words (word)
SELECT DISTINCT unnest(string_to_array(words, ' ')) FROM code_chunk_words
ON CONFLICT (word) DO NOTHING;

-- Built after the backfill, in one pass. The GIN indexes write every entry in place
-- (fastupdate off): a pending list of unsorted entries is read in full by every lookup (on PGLite
-- at 50,000 chunks, finding 280 matching rows took 1.6 ms behind a full list and 0.25 ms
-- without), while a chunk adds only its few dozen distinct words.
CREATE INDEX IF NOT EXISTS code_chunk_words_order_idx ON code_chunk_words (slug, start_line, chunk_index, chunk_id);
CREATE INDEX IF NOT EXISTS code_chunk_words_words_idx ON code_chunk_words USING gin (string_to_array(words, ' '))
  WITH (fastupdate = off);
-- Without pg_trgm (see 0190) the expansion scans the vocabulary: same answers, slower.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
    EXECUTE 'CREATE INDEX IF NOT EXISTS code_words_trgm_idx ON code_words USING gin (word gin_trgm_ops) WITH (fastupdate = off)';
  END IF;
END
$$;
ANALYZE code_chunk_words;
ANALYZE code_words;
