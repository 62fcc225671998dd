-- Every markdown page write looks up the entities (pages whose lower-cased type is an entity
-- type) to find mentions; without this index that lookup scanned every page, so each write
-- cost more the larger the brain grew.
CREATE INDEX IF NOT EXISTS pages_entity_type_idx ON pages (lower(type)) WHERE page_kind = 'markdown';
