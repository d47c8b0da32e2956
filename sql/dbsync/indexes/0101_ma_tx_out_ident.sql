-- The outputs holding one asset (the CIP-68 reference NFT's current UTxO,
-- asset_cip68_datum*.sql). Stock db-sync indexes ma_tx_out only by tx_out_id.
CREATE INDEX IF NOT EXISTS sg_ma_tx_out_ident ON ma_tx_out (ident);
