-- Provenance of a page's last write. Nullable with no default: older pages stay NULL.
ALTER TABLE pages ADD COLUMN IF NOT EXISTS ingested_via text;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS ingested_at timestamptz;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS source_uri text;
ALTER TABLE pages ADD COLUMN IF NOT EXISTS source_kind text;
