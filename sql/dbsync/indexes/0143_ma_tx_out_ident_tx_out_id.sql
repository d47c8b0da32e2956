-- The transactions whose outputs carry one asset, in chain order
-- (assets_txs.sql, Blockfrost's /assets/{asset}/transactions and /txs):
-- output ids follow the chain, so this index walks them in order from
-- either end and stops after the page. It serves every lookup
-- sg_ma_tx_out_ident (0101) serves; a new database needs only this one.
CREATE INDEX IF NOT EXISTS sg_ma_tx_out_ident_tx_out_id ON ma_tx_out (ident, tx_out_id);
