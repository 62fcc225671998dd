-- The first three resolution rules (the exact path, the path relative to the linking page's
-- folder, the shortest path ending in the file name) only ever match pages with the link's file
-- name, so one probe of the file-name index finds the candidates of all three, ranked by rule.
-- A link used to cost three probes to resolve by file name and five to find nothing; an import
-- spends most of its link time here. The relative key's own file name is probed too: it differs
-- from the key's only for a path ending in `..`. Same rules, same order, same ties.
CREATE OR REPLACE FUNCTION brain_resolve_links(p_source text[], p_key text[], p_rel text[], p_text text[], p_exclude bigint)
RETURNS TABLE (ord bigint, page_id bigint) AS $$
  SELECT k.ord, coalesce(
      (SELECT p.id FROM pages p
        WHERE brain_link_name(p.slug) = ANY (ARRAY[brain_link_name(k.key), brain_link_name(k.rel)]) AND p.id IS DISTINCT FROM p_exclude
          AND (lower(p.slug) = k.key OR lower(p.slug) = k.rel OR right(lower(p.slug), length(k.key) + 1) = '/' || k.key)
        ORDER BY CASE WHEN lower(p.slug) = k.key THEN 1 WHEN lower(p.slug) = k.rel THEN 2 ELSE 3 END,
                 (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1),
      (SELECT p.id FROM pages p WHERE k.txt <> '' AND lower(p.title) = lower(k.txt) AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1),
      (SELECT p.id FROM pages p WHERE k.txt <> '' AND p.id IN (SELECT a.page_id FROM page_aliases a WHERE a.alias = lower(btrim(k.txt))) AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug, p.source_id LIMIT 1)) AS page_id
  FROM unnest(p_source, p_key, p_rel, p_text) WITH ORDINALITY AS k(source, key, rel, txt, ord)
$$ LANGUAGE sql STABLE;
