-- prune_fk_drop: lift prune's foreign key (ma_tx_out -> tx_out) from an
-- existing db-sync schema for the load: tx_out and ma_tx_out are copied on
-- separate connections, so an asset row can arrive before its output is
-- visible. The generator puts the key back, unchanged, after the load.
ALTER TABLE IF EXISTS ma_tx_out DROP CONSTRAINT IF EXISTS ma_tx_out_tx_out_id_fkey
