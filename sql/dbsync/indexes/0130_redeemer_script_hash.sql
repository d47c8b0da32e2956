-- The redeemers that ran one script, in chain order
-- (scripts_redeemers.sql), their ids skipped in the index alone for deep
-- pages. Stock db-sync indexes redeemer by tx_id and redeemer_data_id
-- only: without it every page reads the whole table.
CREATE INDEX IF NOT EXISTS sg_redeemer_script_hash ON redeemer (script_hash, id);
