-- A counter that changes whenever anything a search result is made of changes (pages and their
-- chunks), so a process may keep search results and know, with one row read, that they are
-- still what the database would answer. The counter moves in the writer's own transaction: a
-- reader sees the new number exactly when it can see the new rows.
CREATE TABLE IF NOT EXISTS search_generation (
  id integer PRIMARY KEY CHECK (id = 1),
  generation bigint NOT NULL
);
INSERT INTO search_generation (id, generation) VALUES (1, 0) ON CONFLICT (id) DO NOTHING;

-- One marker row per writing transaction, removed again when that transaction commits.
CREATE TABLE IF NOT EXISTS search_generation_pending (
  txid bigint PRIMARY KEY
);

-- Statement-level, so a write of many rows costs one call; the first write of a transaction
-- leaves its marker and a transaction-local flag, and the triggers' WHEN skips the call for the
-- transaction's later writes.
CREATE OR REPLACE FUNCTION search_generation_mark() RETURNS trigger AS $$
BEGIN
  PERFORM set_config('brain.search_generation_marked', 'on', true);
  INSERT INTO search_generation_pending (txid) VALUES (txid_current()) ON CONFLICT (txid) DO NOTHING;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- Runs at commit (deferred) for the marker: taking the shared row last means a writer never
-- holds it while waiting for another lock, so it adds no deadlock to the statistics rows.
CREATE OR REPLACE FUNCTION search_generation_bump() RETURNS trigger AS $$
BEGIN
  UPDATE search_generation SET generation = generation + 1 WHERE id = 1;
  DELETE FROM search_generation_pending WHERE txid = NEW.txid;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS search_generation_pending_trigger ON search_generation_pending;
CREATE CONSTRAINT TRIGGER search_generation_pending_trigger AFTER INSERT ON search_generation_pending
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_generation_bump();

DROP TRIGGER IF EXISTS pages_search_generation_trigger ON pages;
CREATE TRIGGER pages_search_generation_trigger AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON pages
  FOR EACH STATEMENT WHEN (current_setting('brain.search_generation_marked', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION search_generation_mark();
DROP TRIGGER IF EXISTS content_chunks_search_generation_trigger ON content_chunks;
CREATE TRIGGER content_chunks_search_generation_trigger AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_chunks
  FOR EACH STATEMENT WHEN (current_setting('brain.search_generation_marked', true) IS DISTINCT FROM 'on')
  EXECUTE FUNCTION search_generation_mark();
