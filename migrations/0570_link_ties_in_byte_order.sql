-- Two notes with the same file name and slugs of the same length are told apart by path order.
-- That order was the database's collation: byte order on PGLite, but on a PostgreSQL cluster
-- made with a language collation (en_US and the like) an accented letter sorts beside its base
-- letter rather than after `z`, so `[[Tie]]` between `éb/tie` and `fa/tie` went one way on one
-- engine and the other way on the other. Ties are now broken in byte order ("C") on every
-- engine, and the links already resolved by the other order are resolved again.
CREATE OR REPLACE FUNCTION brain_resolve_links(p_source text[], p_key text[], p_rel text[], p_text text[], p_exclude bigint)
RETURNS TABLE (ord bigint, page_id bigint) AS $$
  SELECT k.ord, coalesce(
      (SELECT p.id FROM pages p
        WHERE brain_link_name(p.slug) = ANY (ARRAY[brain_link_name(k.key), brain_link_name(k.rel)]) AND p.id IS DISTINCT FROM p_exclude
          AND (lower(p.slug) = k.key OR lower(p.slug) = k.rel OR right(lower(p.slug), length(k.key) + 1) = '/' || k.key)
        ORDER BY CASE WHEN lower(p.slug) = k.key THEN 1 WHEN lower(p.slug) = k.rel THEN 2 ELSE 3 END,
                 (p.source_id = k.source) DESC, length(p.slug), p.slug COLLATE "C", p.source_id COLLATE "C" LIMIT 1),
      (SELECT p.id FROM pages p WHERE k.txt <> '' AND lower(p.title) = lower(k.txt) AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug COLLATE "C", p.source_id COLLATE "C" LIMIT 1),
      (SELECT p.id FROM pages p WHERE k.txt <> '' AND p.id IN (SELECT a.page_id FROM page_aliases a WHERE a.alias = lower(btrim(k.txt))) AND p.id IS DISTINCT FROM p_exclude
        ORDER BY (p.source_id = k.source) DESC, length(p.slug), p.slug COLLATE "C", p.source_id COLLATE "C" LIMIT 1)) AS page_id
  FROM unnest(p_source, p_key, p_rel, p_text) WITH ORDINALITY AS k(source, key, rel, txt, ord)
$$ LANGUAGE sql STABLE;

-- Only a database whose collation is not byte order can hold a link resolved the other way (its
-- catalogue columns differ between server versions, so the collation is asked by comparing).
DO $$
BEGIN
  IF NOT ('B' < 'a' AND 'f' < 'é') THEN
    UPDATE links l
    SET to_page_id = r.page_id
    FROM (SELECT l2.id, brain_resolve_link((SELECT f.source_id FROM pages f WHERE f.id = l2.from_page_id),
                                           l2.target_key, l2.target_rel_key, l2.target_text, NULL) AS page_id
          FROM links l2 WHERE l2.target_text IS NOT NULL AND l2.to_page_id IS NOT NULL) r
    WHERE l.id = r.id AND r.page_id IS NOT NULL AND r.page_id <> l.to_page_id;
  END IF;
END $$;
