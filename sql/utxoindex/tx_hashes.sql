-- tx_hashes: the tx and block hashes of tx $1 (the horizon's checkpoint).
SELECT t.hash AS tx_hash, b.hash AS block_hash
FROM tx t
JOIN block b ON b.id = t.block_id
WHERE t.id = $1
