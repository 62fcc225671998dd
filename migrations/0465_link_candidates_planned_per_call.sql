-- A page's arrival re-resolves the explicit links its names could satisfy. The query that finds
-- those links ran from a plan cached in the trigger; after five runs PostgreSQL may switch it to
-- a generic plan costed on the sizes the tables had then, and during a bulk import that began on
-- an empty brain it kept a plan fit for a handful of links while the links table grew (a
-- 3,000-note import with links: 13.8 s; with the query planned on each call: 4.5 s; the embedded
-- engine, which kept a good plan, unchanged). Only that query is planned per call: planning the
-- re-resolving UPDATE too made the embedded engine twice as slow.
CREATE OR REPLACE FUNCTION brain_page_names_changed() RETURNS trigger AS $$
DECLARE
  names text[];
  ids bigint[];
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM page_aliases WHERE page_id = NEW.id;
  END IF;
  SELECT array_agg(a) INTO names FROM brain_frontmatter_aliases(NEW.frontmatter) a;
  IF names IS NOT NULL THEN
    INSERT INTO page_aliases (page_id, alias) SELECT NEW.id, a FROM unnest(names) a ON CONFLICT DO NOTHING;
  END IF;
  names := coalesce(names, '{}') || lower(NEW.title);
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(x.id) INTO ids FROM links x WHERE x.to_page_id = NEW.id AND x.target_text IS NOT NULL;
  END IF;
  EXECUTE 'SELECT coalesce($1, ''{}'') || coalesce(array_agg(c.id), ''{}'') FROM (
      SELECT x.id FROM links x WHERE x.target_text IS NOT NULL AND brain_link_name(x.target_key) = brain_link_name($2)
      UNION SELECT x.id FROM links x WHERE x.target_text IS NOT NULL AND lower(x.target_text) = ANY($3)) c'
    INTO ids USING ids, NEW.slug, names;
  IF cardinality(ids) = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE links l SET to_page_id = brain_resolve_link((SELECT f.source_id FROM pages f WHERE f.id = l.from_page_id), l.target_key, l.target_rel_key, l.target_text, NULL)
  WHERE l.id = ANY(ids);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;
