-- requires: httpServer
-- OAuth 2.1 for `serve --http`: registered clients, authorization codes, access and refresh
-- tokens. Secrets, codes and tokens are stored only as SHA-256 hashes.
CREATE TABLE IF NOT EXISTS oauth_clients (
  client_id text PRIMARY KEY,
  secret_hash text,
  name text NOT NULL,
  redirect_uris text[] NOT NULL DEFAULT ARRAY[]::text[],
  scopes text[] NOT NULL DEFAULT ARRAY['read', 'write'],
  grant_types text[] NOT NULL DEFAULT ARRAY['authorization_code', 'refresh_token'],
  auth_method text NOT NULL DEFAULT 'none',
  registered_by text NOT NULL DEFAULT 'dynamic',
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE IF NOT EXISTS oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  scopes text[] NOT NULL,
  resource text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  -- The family of the tokens this code was exchanged for: a replayed code revokes them.
  family_id text
);
CREATE INDEX IF NOT EXISTS oauth_codes_expires_at_idx ON oauth_codes (expires_at);

CREATE TABLE IF NOT EXISTS oauth_tokens (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
  client_id text NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  scopes text[] NOT NULL,
  resource text NOT NULL,
  family_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  -- A refresh token is used once; presenting it again is reuse and revokes its family.
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS oauth_tokens_family_idx ON oauth_tokens (family_id);
CREATE INDEX IF NOT EXISTS oauth_tokens_expires_at_idx ON oauth_tokens (expires_at);

-- Requests made with an OAuth token, and the OAuth endpoints' own rows, name the client.
ALTER TABLE mcp_request_log ADD COLUMN IF NOT EXISTS oauth_client_id text;
