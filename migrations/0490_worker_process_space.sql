-- Which pid space a registered process lives in (its pid namespace and the machine's boot), so a
-- process in the same space can tell that a registered pid is dead and take its jobs back at
-- once, instead of waiting for its heartbeat to go stale. NULL where that cannot be known.
ALTER TABLE minion_workers ADD COLUMN IF NOT EXISTS process_space text;
