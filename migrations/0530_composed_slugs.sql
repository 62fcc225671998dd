-- Slugs and link keys take the composed form of accented letters (NFC). A file named on macOS
-- spells `é` as `e` and a combining accent, so its page got a slug that neither a typed slug nor
-- a typed `[[Café]]` matched. Pages stored that way are renamed to the composed slug (the
-- rename triggers update every copy of the slug and resolve the links waiting for the new name),
-- unless another page of the source already has it; then links keyed the old way are keyed again
-- and those still unresolved are resolved by the same rules as a new link.
WITH moves AS (
  SELECT DISTINCT ON (p.source_id, normalize(p.slug, NFC)) p.id, normalize(p.slug, NFC) AS composed
  FROM pages p
  WHERE p.slug IS NOT NFC NORMALIZED
  ORDER BY p.source_id, normalize(p.slug, NFC), p.id
)
UPDATE pages p
SET slug = m.composed
FROM moves m
WHERE p.id = m.id
  AND NOT EXISTS (SELECT 1 FROM pages q WHERE q.source_id = p.source_id AND q.slug = m.composed);

UPDATE links l
SET target_key = normalize(l.target_key, NFC),
    target_rel_key = normalize(l.target_rel_key, NFC),
    to_page_id = coalesce(l.to_page_id, brain_resolve_link(
      (SELECT f.source_id FROM pages f WHERE f.id = l.from_page_id),
      normalize(l.target_key, NFC), normalize(l.target_rel_key, NFC), l.target_text, NULL))
WHERE l.target_text IS NOT NULL
  AND (l.target_key IS NOT NFC NORMALIZED OR l.target_rel_key IS NOT NFC NORMALIZED);
