-- count_admin_keys: how many admin keys exist (the bootstrap row excluded).
-- No parameters. Sequential scan of a small table.
SELECT count(*)
FROM syncgate.admin_keys k
WHERE NOT k.is_bootstrap
