-- follow_has_tx_out: whether tx_out holds rows (none with tx_out.value disable).
SELECT EXISTS (SELECT 1 FROM tx_out) AS has_rows
