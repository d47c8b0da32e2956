-- follow_gov_params: the execution-unit limits of the newest epoch_param,
-- which governance may have changed and later epochs keep (NULL before
-- Alonzo).
SELECT max_tx_ex_mem::text, max_block_ex_mem::text FROM epoch_param ORDER BY epoch_no DESC LIMIT 1
