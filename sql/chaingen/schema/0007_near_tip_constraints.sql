-- Unique constraints db-sync adds from Haskell (not from a migration file)
-- once it is within half an hour of the tip. A seeded chain ends at the tip.
ALTER TABLE reward ADD CONSTRAINT unique_reward UNIQUE (addr_id, type, earned_epoch, pool_id);
ALTER TABLE epoch_stake ADD CONSTRAINT unique_epoch_stake UNIQUE (addr_id, pool_id, epoch_no);
