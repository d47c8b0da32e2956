-- custom_plans: for the rest of the current transaction, plan every
-- statement for its actual values. Sessions default to generic plans (see
-- dbsync/db.go); core-mode history pages must follow the address's
-- frequency (their generic plan took 200-800 ms, the custom one 1-20 ms).
SET LOCAL plan_cache_mode = force_custom_plan
