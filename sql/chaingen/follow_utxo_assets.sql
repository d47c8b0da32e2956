-- follow_utxo_assets: the native assets on the outputs $1 (tx_out ids).
SELECT m.tx_out_id, ma.id, ma.policy, ma.name, ma.fingerprint, m.quantity::text
FROM ma_tx_out m
JOIN multi_asset ma ON ma.id = m.ident
WHERE m.tx_out_id = ANY($1::bigint[])
ORDER BY m.tx_out_id, m.id
