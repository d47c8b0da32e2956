-- tx_first_id_from_slot: the id of the first transaction in the first block
-- at or after a slot (no row when no later block holds a transaction).
-- History cursors turn a slot into a tx.id bound with it: db-sync assigns
-- block and tx ids in chain order, so "slot >= S" is "tx.id >= this id".
-- $1 slot number
-- Indexes: idx_block_slot_no walks blocks from the slot; idx_tx_block_id.
SELECT t.id
FROM block b
JOIN tx t ON t.block_id = b.id
WHERE b.slot_no >= $1
ORDER BY b.slot_no, t.block_index
LIMIT 1
