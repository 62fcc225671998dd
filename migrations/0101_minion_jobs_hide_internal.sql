-- minion_jobs without pg-boss's internal queues (v0101). A worker's cron hand-off queue
-- (__pgboss__send-it) showed up in `brain jobs list` and `jobs stats` as if it were a job.
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
