-- The queue behind agents' Stop and PreCompact hooks, which capture a session transcript as a
-- page; create_queue does nothing when it exists.
SELECT brain_queue.create_queue('capture_transcript', json_build_object('policy', 'standard'));
