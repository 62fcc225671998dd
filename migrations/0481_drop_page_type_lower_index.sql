-- Every lookup by lower-cased type (the entities mentions are matched against) also asks for
-- markdown pages, which the partial index of migration 0349 serves; this one only cost every page
-- write an index entry.
DROP INDEX IF EXISTS pages_type_lower_idx;
