-- epoch_exists: whether the epoch $1 (bigint) has a block: Blockfrost's
-- epochs are those with blocks (a later one is not found).
-- Indexes: idx_block_epoch_no.
SELECT EXISTS (SELECT 1 FROM block b WHERE b.epoch_no = $1::bigint) AS found
