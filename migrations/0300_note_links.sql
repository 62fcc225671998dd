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

-- How a link finds its page, like Obsidian: the exact path (vault-absolute key, then the key
-- relative to the linking page's folder), then the shortest path ending in the same file name
-- (ties broken by path order), then a page title, then an alias; all case-insensitive. Pages of
-- the linking page's own source come first. `p_exclude` is a page about to be deleted.
CREATE OR REPLACE FUNCTION brain_resolve_link(p_source text, p_key text, p_rel text, p_text text, p_exclude bigint) RETURNS bigint AS $$
  SELECT c.id FROM (
    SELECT p.id, p.source_id, p.slug, 0 AS rule FROM pages p WHERE lower(p.slug) = p_key
    UNION ALL
    SELECT p.id, p.source_id, p.slug, 1 FROM pages p WHERE p_rel IS NOT NULL AND lower(p.slug) = p_rel
    UNION ALL
    SELECT p.id, p.source_id, p.slug, 2 FROM pages p
     WHERE brain_link_name(p.slug) = brain_link_name(p_key) AND right(lower(p.slug), length(p_key) + 1) = '/' || p_key
    UNION ALL
    SELECT p.id, p.source_id, p.slug, 3 FROM pages p WHERE p_text <> '' AND lower(p.title) = lower(p_text)
    UNION ALL
    SELECT p.id, p.source_id, p.slug, 4 FROM page_aliases a JOIN pages p ON p.id = a.page_id WHERE p_text <> '' AND a.alias = lower(btrim(p_text))
  ) c
  WHERE c.id IS DISTINCT FROM p_exclude
  ORDER BY (c.source_id = p_source) DESC, c.rule, length(c.slug), c.slug, c.source_id
  LIMIT 1
$$ LANGUAGE sql STABLE;

-- Re-resolves the explicit links a page's names could satisfy (its file name, title, aliases),
-- and those pointing at it now. Runs when a page appears, moves, is renamed or restored.
CREATE OR REPLACE FUNCTION brain_page_names_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM page_aliases WHERE page_id = NEW.id;
  END IF;
  INSERT INTO page_aliases (page_id, alias) SELECT NEW.id, a FROM brain_frontmatter_aliases(NEW.frontmatter) a ON CONFLICT DO NOTHING;
  UPDATE links l SET to_page_id = brain_resolve_link(f.source_id, l.target_key, l.target_rel_key, l.target_text, NULL)
  FROM pages f
  WHERE f.id = l.from_page_id AND l.id IN (
    SELECT x.id FROM links x WHERE x.target_text IS NOT NULL AND brain_link_name(x.target_key) = brain_link_name(NEW.slug)
    UNION SELECT x.id FROM links x WHERE x.target_text IS NOT NULL AND lower(x.target_text) = lower(NEW.title)
    UNION SELECT x.id FROM links x JOIN page_aliases a ON a.page_id = NEW.id AND lower(x.target_text) = a.alias WHERE x.target_text IS NOT NULL
    UNION SELECT x.id FROM links x WHERE TG_OP = 'UPDATE' AND x.to_page_id = NEW.id AND x.target_text IS NOT NULL);
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
BEGIN
  DELETE FROM links WHERE to_page_id = OLD.id AND target_text IS NULL;
  UPDATE links l SET to_page_id = brain_resolve_link(f.source_id, l.target_key, l.target_rel_key, l.target_text, OLD.id)
  FROM pages f
  WHERE f.id = l.from_page_id AND l.to_page_id = OLD.id AND l.from_page_id <> OLD.id;
  RETURN OLD;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS pages_link_delete ON pages;
CREATE TRIGGER pages_link_delete BEFORE DELETE ON pages FOR EACH ROW EXECUTE FUNCTION brain_page_deleting();
