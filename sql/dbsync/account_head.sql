-- account_head: what every stake-account answer needs first, in one round
-- trip: the chain tip (no row when db-sync holds no blocks; its epoch is
-- "the current epoch" of the account figures and its slot and hash the
-- answer's last_updated) and the stake address, resolved from its
-- candidate reward-address bytes, the first candidate that exists winning
-- (key credential before script credential). id and view are NULL for a
-- stake address never seen on chain.
-- $1 bytea[] candidate stake_address.hash_raw values, preferred first
-- Indexes: idx_block_slot_no (tip); unique_stake_address (hash_raw).
SELECT
{{template "tip_columns"}},
  sa.id AS addr_id,
  sa.view AS stake_address
FROM (
  SELECT b.slot_no, b.hash, b.block_no, b.epoch_no, b.time
  {{template "newest_block"}}
) b
LEFT JOIN LATERAL (
  SELECT s.id, s.view
  FROM stake_address s
  WHERE s.hash_raw = ANY($1::bytea[])
  ORDER BY array_position($1::bytea[], s.hash_raw::bytea)
  LIMIT 1
) sa ON true
