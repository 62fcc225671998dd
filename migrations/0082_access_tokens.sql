-- requires: httpServer
CREATE TABLE IF NOT EXISTS access_tokens (
  id bigserial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  token_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL DEFAULT ARRAY['read', 'write'],
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);

CREATE TABLE IF NOT EXISTS mcp_request_log (
  id bigserial PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now(),
  token_id bigint REFERENCES access_tokens(id) ON DELETE SET NULL,
  client_ip text,
  route text NOT NULL,
  method text,
  tool_name text,
  status integer NOT NULL,
  error_code text,
  duration_ms integer
);
CREATE INDEX IF NOT EXISTS mcp_request_log_created_at_idx ON mcp_request_log (created_at);
