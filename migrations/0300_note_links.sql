-- Links between notes join the code citations in the one links table. An explicit link (a
-- wikilink, an embed, a markdown link, a front-matter property link) keeps what its author wrote
-- (target_text) and the keys it is resolved by; its to_page_id is NULL while nothing matches, and
-- falls back to NULL when its target is deleted. Derived links (citations, mentions) have no
-- target_text and disappear with their target, as before.
ALTER TABLE links ADD COLUMN IF NOT EXISTS target_text text;
ALTER TABLE links ADD COLUMN IF NOT EXISTS target_key text;
ALTER TABLE links ADD COLUMN IF NOT EXISTS target_rel_key text;
ALTER TABLE links ADD COLUMN IF NOT EXISTS shown_text text;
ALTER TABLE links ADD COLUMN IF NOT EXISTS anchor text;
ALTER TABLE links ADD COLUMN IF NOT EXISTS line integer;
ALTER TABLE links ADD COLUMN IF NOT EXISTS context text;
ALTER TABLE links ALTER COLUMN to_page_id DROP NOT NULL;

ALTER TABLE links DROP CONSTRAINT IF EXISTS links_to_page_id_fkey;
ALTER TABLE links ADD CONSTRAINT links_to_page_id_fkey FOREIGN KEY (to_page_id) REFERENCES pages(id) ON DELETE SET NULL;

-- Explicit links are replaced per page as a whole and may repeat a target with other anchors, so
-- only derived links are unique per edge.
DROP INDEX IF EXISTS links_edge_key;
CREATE UNIQUE INDEX IF NOT EXISTS links_derived_edge_key ON links (from_page_id, to_page_id, link_type) WHERE target_text IS NULL;
CREATE INDEX IF NOT EXISTS links_from_page_idx ON links (from_page_id);

-- The file name of a slug, lower-cased: what `[[Name]]` is matched against.
CREATE OR REPLACE FUNCTION brain_link_name(slug text) RETURNS text AS $$
  SELECT lower(regexp_replace(slug, '^.*/', ''))
$$ LANGUAGE sql IMMUTABLE;

CREATE INDEX IF NOT EXISTS pages_slug_lower_idx ON pages (lower(slug));
CREATE INDEX IF NOT EXISTS pages_link_name_idx ON pages (brain_link_name(slug));
CREATE INDEX IF NOT EXISTS pages_title_lower_idx ON pages (lower(title));
CREATE INDEX IF NOT EXISTS links_target_name_idx ON links (brain_link_name(target_key)) WHERE target_text IS NOT NULL;
CREATE INDEX IF NOT EXISTS links_target_text_idx ON links (lower(target_text)) WHERE target_text IS NOT NULL;

-- Front-matter aliases (`aliases:` or `alias:`, a string or a list), lower-cased, for lookups.
CREATE TABLE IF NOT EXISTS page_aliases (
  page_id bigint NOT NULL REFERENCES pages(id) ON DELETE CASCADE,
  alias text NOT NULL,
  PRIMARY KEY (page_id, alias)
);
CREATE INDEX IF NOT EXISTS page_aliases_alias_idx ON page_aliases (alias);

CREATE OR REPLACE FUNCTION brain_frontmatter_aliases(fm jsonb) RETURNS SETOF text AS $$
  SELECT DISTINCT lower(btrim(a)) FROM (
    SELECT jsonb_array_elements_text(v) AS a FROM (VALUES (fm->'aliases'), (fm->'alias')) x(v) WHERE jsonb_typeof(v) = 'array'
    UNION ALL
    SELECT v #>> '{}' FROM (VALUES (fm->'aliases'), (fm->'alias')) x(v) WHERE jsonb_typeof(v) = 'string'
  ) s WHERE btrim(a) <> ''
$$ LANGUAGE sql IMMUTABLE;

-- How links find their pages, like Obsidian (one row per link, in the order given): the first
-- rule that matches, all case-insensitive: the exact path (vault-absolute key, then the key
-- relative to the linking page's folder), the shortest path ending in the same file name (ties
-- broken by path order), a page title, an alias. Within a rule, pages of the linking page's own
-- source come first. `p_exclude` is a page about to be deleted.
CREATE OR REPLACE FUNCTION brain_resolve_links(p_source text[], p_key text[], p_rel text[], p_text text[], p_exclude bigint)
RETURNS TABLE (ord bigint, page_id bigint) AS $$
  -- coalesce stops at the first rule that matches: most links cost one or two index probes.
  SELECT k.ord, coalesce(
      (SELECT p.id FROM pages p WHERE lower(p.slug) = k.key AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1),
      (SELECT p.id FROM pages p WHERE k.rel IS NOT NULL AND lower(p.slug) = k.rel AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1),
      (SELECT p.id FROM pages p WHERE brain_link_name(p.slug) = brain_link_name(k.key) AND right(lower(p.slug), length(k.key) + 1) = '/' || k.key AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1),
      (SELECT p.id FROM pages p WHERE k.txt <> '' AND lower(p.title) = lower(k.txt) AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1),
      (SELECT p.id FROM pages p WHERE k.txt <> '' AND p.id IN (SELECT a.page_id FROM page_aliases a WHERE a.alias = lower(btrim(k.txt))) AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1)) AS page_id
  FROM unnest(p_source, p_key, p_rel, p_text) WITH ORDINALITY AS k(source, key, rel, txt, ord)
$$ LANGUAGE sql STABLE;

-- One link at a time (the page triggers): the same rules.
CREATE OR REPLACE FUNCTION brain_resolve_link(p_source text, p_key text, p_rel text, p_text text, p_exclude bigint) RETURNS bigint AS $$
  SELECT page_id FROM brain_resolve_links(ARRAY[p_source], ARRAY[p_key], ARRAY[p_rel], ARRAY[p_text], p_exclude)
$$ LANGUAGE sql STABLE;

-- Re-resolves the explicit links a page's names could satisfy (its file name, title, aliases),
-- and those pointing at it now. Runs when a page appears, moves, is renamed or restored.
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
  -- The candidates first, then the update by id: the plans cached for the trigger stay on the
  -- indexes whatever the size of the tables.
  IF TG_OP = 'UPDATE' THEN
    SELECT array_agg(x.id) INTO ids FROM links x WHERE x.to_page_id = NEW.id AND x.target_text IS NOT NULL;
  END IF;
  SELECT coalesce(ids, '{}') || coalesce(array_agg(c.id), '{}') INTO ids FROM (
    SELECT x.id FROM links x WHERE x.target_text IS NOT NULL AND brain_link_name(x.target_key) = brain_link_name(NEW.slug)
    UNION SELECT x.id FROM links x WHERE x.target_text IS NOT NULL AND lower(x.target_text) = ANY(names)) c;
  IF cardinality(ids) = 0 THEN
    RETURN NULL;
  END IF;
  UPDATE links l SET to_page_id = brain_resolve_link((SELECT f.source_id FROM pages f WHERE f.id = l.from_page_id), l.target_key, l.target_rel_key, l.target_text, NULL)
  WHERE l.id = ANY(ids);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS pages_link_names_insert ON pages;
CREATE TRIGGER pages_link_names_insert AFTER INSERT ON pages FOR EACH ROW EXECUTE FUNCTION brain_page_names_changed();
DROP TRIGGER IF EXISTS pages_link_names_update ON pages;
CREATE TRIGGER pages_link_names_update AFTER UPDATE OF slug, title, frontmatter ON pages FOR EACH ROW
  WHEN (OLD.slug IS DISTINCT FROM NEW.slug OR OLD.title IS DISTINCT FROM NEW.title
        OR OLD.frontmatter->'aliases' IS DISTINCT FROM NEW.frontmatter->'aliases'
        OR OLD.frontmatter->'alias' IS DISTINCT FROM NEW.frontmatter->'alias')
  EXECUTE FUNCTION brain_page_names_changed();

-- Before a page goes: derived links to it go with it; explicit links to it fall back to the next
-- page that satisfies them, or to unresolved (their target text is kept).
CREATE OR REPLACE FUNCTION brain_page_deleting() RETURNS trigger AS $$
DECLARE
  ids bigint[];
BEGIN
  DELETE FROM links WHERE to_page_id = OLD.id AND target_text IS NULL;
  SELECT array_agg(x.id) INTO ids FROM links x WHERE x.to_page_id = OLD.id AND x.from_page_id <> OLD.id;
  IF ids IS NULL THEN
    RETURN OLD;
  END IF;
  UPDATE links l SET to_page_id = brain_resolve_link((SELECT f.source_id FROM pages f WHERE f.id = l.from_page_id), l.target_key, l.target_rel_key, l.target_text, OLD.id)
  WHERE l.id = ANY(ids);
  RETURN OLD;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS pages_link_delete ON pages;
CREATE TRIGGER pages_link_delete BEFORE DELETE ON pages FOR EACH ROW EXECUTE FUNCTION brain_page_deleting();
