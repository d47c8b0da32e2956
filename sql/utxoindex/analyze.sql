-- analyze: refresh the planner's statistics of the index after a build
-- (the partial indexes make plans obvious, but row estimates still matter
-- for the joins around them).
ANALYZE syncgate_utxo.output
