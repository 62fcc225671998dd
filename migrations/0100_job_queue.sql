-- The job queue (v0100). pg-boss 10 is the engine: its schema (version 24) lives in the
-- brain_queue schema and is installed here so that both engines get it from the one migration
-- ledger. minion_jobs is the spec's job record as a view over pg-boss's tables, and
-- minion_workers records which processes are alive and what they hold.
--
-- The block between the markers is pg-boss's own construction plan for schema brain_queue,
-- without its BEGIN/COMMIT (the ledger runs each migration in a transaction). It is generated:
--   node -e "process.stdout.write(require('pg-boss/src/plans.js').create('brain_queue', 24))"
-- test/queue/schema.test.ts fails if it drifts from the installed pg-boss.
-- pg-boss:begin
SET LOCAL lock_timeout = '30s';
    SET LOCAL idle_in_transaction_session_timeout = '30s';
    SELECT pg_advisory_xact_lock(
      ('x' || encode(sha224((current_database() || '.pgboss.brain_queue')::bytea), 'hex'))::bit(64)::bigint
  );
    
    CREATE SCHEMA IF NOT EXISTS brain_queue
  ;

    CREATE TYPE brain_queue.job_state AS ENUM (
      'created',
      'retry',
      'active',
      'completed',
      'cancelled',
      'failed'
    )
  ;

    CREATE TABLE brain_queue.version (
      version int primary key,
      maintained_on timestamp with time zone,
      cron_on timestamp with time zone,
      monitored_on timestamp with time zone
    )
  ;

    CREATE TABLE brain_queue.queue (
      name text,
      policy text,
      retry_limit int,
      retry_delay int,
      retry_backoff bool,
      expire_seconds int,
      retention_minutes int,
      dead_letter text REFERENCES brain_queue.queue (name),
      partition_name text,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE brain_queue.schedule (
      name text REFERENCES brain_queue.queue ON DELETE CASCADE,
      cron text not null,
      timezone text,
      data jsonb,
      options jsonb,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY (name)
    )
  ;

    CREATE TABLE brain_queue.subscription (
      event text not null,
      name text not null REFERENCES brain_queue.queue ON DELETE CASCADE,
      created_on timestamp with time zone not null default now(),
      updated_on timestamp with time zone not null default now(),
      PRIMARY KEY(event, name)
    )
  ;

    CREATE TABLE brain_queue.job (
      id uuid not null default gen_random_uuid(),
      name text not null,
      priority integer not null default(0),
      data jsonb,
      state brain_queue.job_state not null default('created'),
      retry_limit integer not null default(2),
      retry_count integer not null default(0),
      retry_delay integer not null default(0),
      retry_backoff boolean not null default false,
      start_after timestamp with time zone not null default now(),
      started_on timestamp with time zone,
      singleton_key text,
      singleton_on timestamp without time zone,
      expire_in interval not null default interval '15 minutes',
      created_on timestamp with time zone not null default now(),
      completed_on timestamp with time zone,
      keep_until timestamp with time zone NOT NULL default now() + interval '14 days',
      output jsonb,
      dead_letter text,
      policy text
    ) PARTITION BY LIST (name)
  ;
ALTER TABLE brain_queue.job ADD PRIMARY KEY (name, id);
CREATE TABLE brain_queue.archive (LIKE brain_queue.job);
ALTER TABLE brain_queue.archive ADD PRIMARY KEY (name, id);
ALTER TABLE brain_queue.archive ADD archived_on timestamptz NOT NULL DEFAULT now();
CREATE INDEX archive_i1 ON brain_queue.archive(archived_on);

    CREATE FUNCTION brain_queue.create_queue(queue_name text, options json)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar := 'j' || encode(sha224(queue_name::bytea), 'hex');
      queue_created_on timestamptz;
    BEGIN

      WITH q as (
      INSERT INTO brain_queue.queue (
        name,
        policy,
        retry_limit,
        retry_delay,
        retry_backoff,
        expire_seconds,
        retention_minutes,
        dead_letter,
        partition_name
      )
      VALUES (
        queue_name,
        options->>'policy',
        (options->>'retryLimit')::int,
        (options->>'retryDelay')::int,
        (options->>'retryBackoff')::bool,
        (options->>'expireInSeconds')::int,
        (options->>'retentionMinutes')::int,
        options->>'deadLetter',
        table_name
      )
      ON CONFLICT DO NOTHING
      RETURNING created_on
      )
      SELECT created_on into queue_created_on from q;

      IF queue_created_on IS NULL THEN
        RETURN;
      END IF;

      EXECUTE format('CREATE TABLE brain_queue.%I (LIKE brain_queue.job INCLUDING DEFAULTS)', table_name);

      EXECUTE format('ALTER TABLE brain_queue.%1$I ADD PRIMARY KEY (name, id)', table_name);
      EXECUTE format('ALTER TABLE brain_queue.%1$I ADD CONSTRAINT q_fkey FOREIGN KEY (name) REFERENCES brain_queue.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('ALTER TABLE brain_queue.%1$I ADD CONSTRAINT dlq_fkey FOREIGN KEY (dead_letter) REFERENCES brain_queue.queue (name) ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i1 ON brain_queue.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''created'' AND policy = ''short''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i2 ON brain_queue.%1$I (name, COALESCE(singleton_key, '''')) WHERE state = ''active'' AND policy = ''singleton''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i3 ON brain_queue.%1$I (name, state, COALESCE(singleton_key, '''')) WHERE state <= ''active'' AND policy = ''stately''', table_name);
      EXECUTE format('CREATE UNIQUE INDEX %1$s_i4 ON brain_queue.%1$I (name, singleton_on, COALESCE(singleton_key, '''')) WHERE state <> ''cancelled'' AND singleton_on IS NOT NULL', table_name);
      EXECUTE format('CREATE INDEX %1$s_i5 ON brain_queue.%1$I (name, start_after) INCLUDE (priority, created_on, id) WHERE state < ''active''', table_name);

      EXECUTE format('ALTER TABLE brain_queue.%I ADD CONSTRAINT cjc CHECK (name=%L)', table_name, queue_name);
      EXECUTE format('ALTER TABLE brain_queue.job ATTACH PARTITION brain_queue.%I FOR VALUES IN (%L)', table_name, queue_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;

    CREATE FUNCTION brain_queue.delete_queue(queue_name text)
    RETURNS VOID AS
    $$
    DECLARE
      table_name varchar;
    BEGIN
      WITH deleted as (
        DELETE FROM brain_queue.queue
        WHERE name = queue_name
        RETURNING partition_name
      )
      SELECT partition_name from deleted INTO table_name;

      EXECUTE format('DROP TABLE IF EXISTS brain_queue.%I', table_name);
    END;
    $$
    LANGUAGE plpgsql;
  ;
INSERT INTO brain_queue.version(version) VALUES ('24');
-- pg-boss:end

-- Lookups by job id alone (jobs get, cancel, retry) would otherwise scan every partition.
-- Partitioned indexes reach queues created later too: ATTACH PARTITION builds them.
CREATE INDEX job_id_idx ON brain_queue.job (id);
CREATE INDEX job_active_idx ON brain_queue.job (name, started_on) WHERE state = 'active';
CREATE INDEX archive_id_idx ON brain_queue.archive (id);

-- One pg-boss queue per job name. autopilot-cycle is "stately": Postgres itself keeps at most
-- one waiting and one active cycle.
SELECT brain_queue.create_queue(q.name, json_build_object('policy', q.policy))
FROM (VALUES
  ('sync', 'standard'),
  ('embed', 'standard'),
  ('extract', 'standard'),
  ('ingest_capture', 'standard'),
  ('autopilot-cycle', 'stately'),
  ('shell', 'standard'),
  ('import', 'standard')
) AS q(name, policy);

-- Processes that claim jobs: long-lived workers and CLI commands running a job inline. A row
-- is alive while heartbeat_at is fresh; active_jobs is what the process held at its last beat,
-- which is how stalled jobs (their process died) are told apart from slow ones.
CREATE TABLE IF NOT EXISTS minion_workers (
  id uuid PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('worker', 'inline')),
  pid integer NOT NULL,
  host text NOT NULL,
  names text[] NOT NULL,
  concurrency integer NOT NULL CHECK (concurrency > 0),
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now(),
  active_jobs uuid[] NOT NULL DEFAULT '{}'
);
CREATE INDEX IF NOT EXISTS minion_workers_heartbeat_idx ON minion_workers (heartbeat_at);

-- pg-boss's `data` column holds an envelope: {payload, timeout_ms, max_stalled,
-- idempotency_key}; `output` holds {progress} while active, {result} once completed and
-- {error} after a failure or a stall. pg-boss's own timeout failure writes {value: {message}}.
CREATE OR REPLACE VIEW minion_jobs AS
SELECT
  j.id,
  j.name,
  (CASE
    WHEN j.state IN ('created', 'retry') THEN 'waiting'
    WHEN j.state = 'active' THEN 'active'
    WHEN j.state = 'completed' THEN 'completed'
    ELSE 'dead'
  END)::text AS status,
  j.state::text AS engine_state,
  COALESCE(j.data -> 'payload', '{}'::jsonb) AS data,
  COALESCE((j.data -> 'payload' ->> 'untrusted_payload')::boolean, false) AS untrusted_payload,
  j.data ->> 'idempotency_key' AS idempotency_key,
  COALESCE((j.data ->> 'max_stalled')::integer, j.retry_limit) AS max_stalled,
  COALESCE((j.data ->> 'timeout_ms')::integer, (EXTRACT(epoch FROM j.expire_in) * 1000)::integer) AS timeout_ms,
  j.retry_count + (CASE WHEN j.started_on IS NULL THEN 0 ELSE 1 END) AS attempts,
  j.priority,
  (CASE WHEN j.state = 'completed' THEN j.output -> 'result' END) AS result,
  (CASE
    WHEN j.state = 'completed' THEN NULL
    WHEN j.state = 'cancelled' THEN jsonb_build_object(
      'class', 'JobCancelled', 'code', 'job_cancelled',
      'hint', 'Run `brain jobs retry <id>` to run it after all.', 'message', 'The job was cancelled.')
    WHEN j.output ? 'error' THEN j.output -> 'error'
    WHEN j.output ? 'value' THEN jsonb_build_object(
      'class', 'JobStalled', 'code', 'job_expired',
      'hint', 'No worker finished the job within its lease; check the worker logs.',
      'message', COALESCE(j.output #>> '{value,message}', j.output ->> 'value'))
  END) AS error,
  (CASE WHEN j.state = 'active' THEN j.output -> 'progress' END) AS progress,
  j.created_on AS created_at,
  (CASE WHEN j.state IN ('created', 'retry') THEN NULL ELSE j.started_on END) AS started_at,
  j.completed_on AS completed_at,
  j.archived
FROM (
  SELECT id, name, state, data, output, priority, retry_limit, retry_count, expire_in,
         created_on, started_on, completed_on, false AS archived
  FROM brain_queue.job
  UNION ALL
  SELECT id, name, state, data, output, priority, retry_limit, retry_count, expire_in,
         created_on, started_on, completed_on, true AS archived
  FROM brain_queue.archive
) AS j
-- pg-boss's own queues (cron hand-off) are machinery, not jobs anyone submitted.
WHERE left(j.name, 10) <> '__pgboss__';
