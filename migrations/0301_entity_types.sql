-- Entities are pages of a configured type, compared case-insensitively; found at every import of
-- a note that may mention them.
CREATE INDEX IF NOT EXISTS pages_type_lower_idx ON pages (lower(type));
