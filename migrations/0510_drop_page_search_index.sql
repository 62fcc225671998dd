-- Keyword search ranks chunks (search_chunks), never pages: no query reads pages.search_vector
-- through an index. Its GIN index cost every page write an entry for each distinct word of the
-- whole page: page inserts of a markdown import ran about 10 % faster without it on the embedded
-- engine. The column itself stays, kept by its trigger, for anyone who queries it.
DROP INDEX IF EXISTS pages_search_vector_idx;
