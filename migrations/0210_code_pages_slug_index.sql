-- code-refs answers a common symbol by walking code chunks in slug order and stopping at the
-- limit. Through the slug index of every page, a walk that starts before the code pages (notes
-- sort among them) reads each markdown page on the way only to skip it; this index holds the
-- code pages alone, so the walk reads nothing else.
CREATE INDEX IF NOT EXISTS pages_code_slug_idx ON pages (slug) WHERE page_kind = 'code';
