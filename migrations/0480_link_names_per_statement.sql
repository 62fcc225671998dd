-- New pages re-resolve the explicit links their names could satisfy once per statement instead of
-- once per row: a bulk import writes a hundred pages in one INSERT, and the per-row trigger ran
-- the candidate query and a resolving UPDATE for each of them. Here the statement's pages are a
-- transition table: one query finds every link naming any of them, and one statement resolves
-- those links again, together. The rules are brain_resolve_links', unchanged; the result is
-- the one the per-row trigger left (every AFTER ROW trigger also ran once the whole statement had
-- written its rows). Renames and moves keep the per-row trigger: transition tables cannot serve a
-- trigger limited to some columns, and such updates come one page at a time.
CREATE OR REPLACE FUNCTION brain_pages_inserted_names() RETURNS trigger AS $$
DECLARE
  file_names text[];
  names text[];
  ids bigint[];
BEGIN
  INSERT INTO page_aliases (page_id, alias)
    SELECT n.id, a FROM new_pages n, brain_frontmatter_aliases(n.frontmatter) a ON CONFLICT DO NOTHING;
  SELECT array_agg(DISTINCT brain_link_name(n.slug)), array_agg(DISTINCT lower(n.title)) INTO file_names, names FROM new_pages n;
  SELECT names || coalesce(array_agg(DISTINCT a.alias), '{}') INTO names
    FROM page_aliases a WHERE a.page_id IN (SELECT n.id FROM new_pages n);
  -- One index probe per name (OFFSET 0 keeps each probe a subquery): joined as sets, the
  -- planner may scan every link and compute its name, which during a bulk import on the embedded
  -- engine cost 150 ms a statement on 10,000 notes instead of 7.
  SELECT array_agg(DISTINCT c.id) INTO ids FROM (
    SELECT x.id FROM unnest(file_names) k(name),
      LATERAL (SELECT x.id FROM links x WHERE brain_link_name(x.target_key) = k.name AND x.target_text IS NOT NULL OFFSET 0) x
    UNION ALL
    SELECT x.id FROM unnest(names) k(name),
      LATERAL (SELECT x.id FROM links x WHERE lower(x.target_text) = k.name AND x.target_text IS NOT NULL OFFSET 0) x) c;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  WITH c AS (
    SELECT x.id, f.source_id, x.target_key, x.target_rel_key, x.target_text, row_number() OVER () AS ord
    FROM links x JOIN pages f ON f.id = x.from_page_id WHERE x.id = ANY(ids)),
  r AS (
    SELECT r.ord, r.page_id FROM brain_resolve_links(
      (SELECT array_agg(c.source_id ORDER BY c.ord) FROM c), (SELECT array_agg(c.target_key ORDER BY c.ord) FROM c),
      (SELECT array_agg(c.target_rel_key ORDER BY c.ord) FROM c), (SELECT array_agg(c.target_text ORDER BY c.ord) FROM c), NULL) r)
  UPDATE links l SET to_page_id = r.page_id FROM c JOIN r ON r.ord = c.ord
  WHERE l.id = c.id AND l.to_page_id IS DISTINCT FROM r.page_id;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS pages_link_names_insert ON pages;
CREATE TRIGGER pages_link_names_insert AFTER INSERT ON pages REFERENCING NEW TABLE AS new_pages
  FOR EACH STATEMENT EXECUTE FUNCTION brain_pages_inserted_names();

-- Only citation links are looked up by the page they were written from; explicit and mention
-- links carry it too, and no longer pay for an index entry each.
DROP INDEX IF EXISTS links_origin_idx;
CREATE INDEX IF NOT EXISTS links_origin_idx ON links (origin_page_id) WHERE link_source = 'markdown' AND origin_page_id IS NOT NULL;
