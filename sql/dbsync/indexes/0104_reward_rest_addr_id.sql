-- Instantaneous rewards (MIR, proposal refunds) of one stake address, for a
-- pool's live stake computed on demand (pool_stake.sql). Stock db-sync
-- indexes reward(addr_id) but not reward_rest(addr_id).
CREATE INDEX IF NOT EXISTS sg_reward_rest_addr_id ON reward_rest (addr_id);
