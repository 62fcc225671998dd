-- A counter that changes whenever anything a search result is made of changes (pages and their
-- chunks), so a process may keep search results and know, with one row read, that they are
-- still what the database would answer. The counter moves in the writer's own transaction: a
-- reader sees the new number exactly when it can see the new rows.
CREATE TABLE IF NOT EXISTS search_generation (
  id integer PRIMARY KEY CHECK (id = 1),
  generation bigint NOT NULL
);
INSERT INTO search_generation (id, generation) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;

-- Runs at commit (deferred), once per transaction: taking the shared row last means a writer
-- never holds it while waiting for another lock, so it adds no deadlock to the statistics rows.
CREATE OR REPLACE FUNCTION search_generation_bump() RETURNS trigger AS $$
BEGIN
  IF current_setting('brain.search_generation_bumped', true) IS DISTINCT FROM 'on' THEN
    PERFORM set_config('brain.search_generation_bumped', 'on', true);
    UPDATE search_generation SET generation = generation + 1 WHERE id = 1;
  END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- TRUNCATE has no row events for a deferred trigger; it is rare enough to bump at once.
CREATE OR REPLACE FUNCTION search_generation_bump_now() RETURNS trigger AS $$
BEGIN
  UPDATE search_generation SET generation = generation + 1 WHERE id = 1;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS pages_search_generation_trigger ON pages;
CREATE CONSTRAINT TRIGGER pages_search_generation_trigger AFTER INSERT OR UPDATE OR DELETE ON pages
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_generation_bump();
DROP TRIGGER IF EXISTS content_chunks_search_generation_trigger ON content_chunks;
CREATE CONSTRAINT TRIGGER content_chunks_search_generation_trigger AFTER INSERT OR UPDATE OR DELETE ON content_chunks
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_generation_bump();
DROP TRIGGER IF EXISTS pages_search_generation_truncate_trigger ON pages;
CREATE TRIGGER pages_search_generation_truncate_trigger AFTER TRUNCATE ON pages
  FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump_now();
DROP TRIGGER IF EXISTS content_chunks_search_generation_truncate_trigger ON content_chunks;
CREATE TRIGGER content_chunks_search_generation_truncate_trigger AFTER TRUNCATE ON content_chunks
  FOR EACH STATEMENT EXECUTE FUNCTION search_generation_bump_now();
