-- db-sync's stage-3 indexes (the ones db-sync itself needs; created at every
-- start-up by migration-3-0002..0004). One statement per line.
CREATE INDEX IF NOT EXISTS idx_block_slot_no ON block (slot_no);
CREATE INDEX IF NOT EXISTS idx_block_block_no ON block (block_no);
CREATE INDEX IF NOT EXISTS idx_block_epoch_no ON block (epoch_no);
CREATE INDEX IF NOT EXISTS idx_block_previous_id ON block (previous_id);
CREATE INDEX IF NOT EXISTS idx_tx_block_id ON tx (block_id);
CREATE INDEX IF NOT EXISTS idx_reward_spendable_epoch ON reward (spendable_epoch);
CREATE INDEX IF NOT EXISTS idx_epoch_stake_epoch_no ON epoch_stake (epoch_no);
CREATE INDEX IF NOT EXISTS idx_pool_metadata_ref_pool_id ON pool_metadata_ref (pool_id);
CREATE INDEX IF NOT EXISTS idx_off_chain_pool_fetch_error_pmr_id ON off_chain_pool_fetch_error (pmr_id);
CREATE INDEX IF NOT EXISTS idx_off_chain_pool_data_pmr_id ON off_chain_pool_data (pmr_id);
CREATE INDEX IF NOT EXISTS idx_pool_update_registered_tx_id ON pool_update (registered_tx_id);
CREATE INDEX IF NOT EXISTS idx_committee_member_committee_id ON committee_member (committee_id);
