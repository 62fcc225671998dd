-- A PDF, HTML or .docx file becomes one page whose slug is its path without the extension
-- (`papers/Q1 Report.pdf` → `papers/q1-report`), but links to such a file were keyed with the
-- extension, so they never resolved. Links are now keyed the way the importer names the page;
-- the unresolved links stored before are keyed again here and resolved by the same rules. Links
-- that already resolve (an HTML file imported as code keeps its extension) are left as they are.
UPDATE links l
SET target_key = regexp_replace(l.target_key, '\.(pdf|x?html?|docx)$', ''),
    target_rel_key = regexp_replace(l.target_rel_key, '\.(pdf|x?html?|docx)$', ''),
    to_page_id = brain_resolve_link(
      (SELECT f.source_id FROM pages f WHERE f.id = l.from_page_id),
      regexp_replace(l.target_key, '\.(pdf|x?html?|docx)$', ''),
      regexp_replace(l.target_rel_key, '\.(pdf|x?html?|docx)$', ''),
      l.target_text, NULL)
WHERE l.target_text IS NOT NULL AND l.to_page_id IS NULL
  AND (l.target_key ~ '\.(pdf|x?html?|docx)$' OR l.target_rel_key ~ '\.(pdf|x?html?|docx)$');
