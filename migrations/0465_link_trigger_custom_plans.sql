-- The page triggers that re-resolve waiting links run their candidate queries once per page
-- written. After five runs PostgreSQL may switch to a generic plan costed on the sizes the
-- tables had then; during a bulk import that began on an empty brain the plan stays on what
-- suited a handful of links while the tables grow (a 3,000-note import with links: 12.8 s,
-- against 4.6 s with plans made for each call). Planning each call costs far less than that.
ALTER FUNCTION brain_page_names_changed() SET plan_cache_mode = force_custom_plan;
ALTER FUNCTION brain_page_deleting() SET plan_cache_mode = force_custom_plan;
