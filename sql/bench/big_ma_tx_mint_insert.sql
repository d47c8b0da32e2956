-- big_ma_tx_mint_insert: mints, one row per element of the arrays:
-- $1 quantity, $2 tx_id, $3 ident (multi_asset.id).
INSERT INTO ma_tx_mint (quantity, tx_id, ident)
SELECT u.quantity, u.tx_id, u.ident
FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) WITH ORDINALITY AS u(quantity, tx_id, ident, ord)
ORDER BY u.ord
