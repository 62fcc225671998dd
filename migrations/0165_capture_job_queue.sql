-- The queue behind `brain capture`: capture is a mutating verb and runs as a job like the
-- others. create_queue does nothing when the queue already exists.
SELECT brain_queue.create_queue('capture', json_build_object('policy', 'standard'));
