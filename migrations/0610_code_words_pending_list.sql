-- The word-list index of code_chunk_words (migration 0250) wrote every entry in place. A code
-- chunk holds some sixty distinct words, and each went into the index on its own: on the
-- embedded engine, importing a 3,400-file TypeScript repository, that insert came to about a
-- millisecond per chunk and grew with the index (the chunk writes' largest cost and the one that
-- grew, from 1.4 to 3.1 ms a chunk between the first and last quarter of the import). With a
-- pending list the entries of many chunks are merged into the index sorted, a word at a time.
-- The list stays under 256 kB as for the other GIN indexes (migration 0260), which a lookup reads
-- in well under a millisecond.
ALTER INDEX IF EXISTS code_chunk_words_words_idx SET (fastupdate = on, gin_pending_list_limit = 256);
