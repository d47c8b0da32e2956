-- Asset supply, mint/burn counts, first and latest mint (asset_info.sql)
-- read every mint row of one asset. Stock db-sync indexes ma_tx_mint only
-- by tx_id; (ident, tx_id) also serves "latest minting tx" in order.
CREATE INDEX IF NOT EXISTS sg_ma_tx_mint_ident_tx_id ON ma_tx_mint (ident, tx_id);
