-- Blocks minted by a pool, in total and in the current epoch (pool_info.sql),
-- as index-only counts. Stock db-sync has block(slot_leader_id) only.
CREATE INDEX IF NOT EXISTS sg_block_slot_leader_epoch ON block (slot_leader_id, epoch_no);
