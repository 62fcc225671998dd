-- The day a page says it was written on (front matter `date`, an ISO date or timestamp), so the
-- pages of a period a question names are found without reading every page. Only ISO dates are
-- indexed: their text sorts as their days do.
CREATE INDEX IF NOT EXISTS pages_written_on_idx ON pages ((left(frontmatter->>'date', 10)))
  WHERE frontmatter->>'date' ~ '^\d{4}-\d{2}-\d{2}';
