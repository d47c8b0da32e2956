-- generic_plans: back to the sessions' default (see dbsync/db.go) for the
-- rest of the current transaction, after the statements that needed
-- custom_plans.sql. Without it every later statement of the request was
-- re-planned too: planning a page's inputs, outputs and assets cost about
-- 2 ms, more than running them.
SET LOCAL plan_cache_mode = force_generic_plan
