-- epoch_protocols: the first epoch of each protocol major version in force
-- (epoch_param: the ledger's version, one row per epoch from Shelley on;
-- not the block headers', which signal what producers are ready for), and
-- the tip's epoch and slot within it. epoch_param is small (a row an
-- epoch) and read whole.
-- Indexes: idx_block_slot_no (the tip).
SELECT
  p.protocol_major::bigint AS major,
  p.first_epoch,
  t.epoch_no AS tip_epoch,
  t.epoch_slot_no AS tip_epoch_slot
FROM (SELECT b.epoch_no::bigint AS epoch_no, COALESCE(b.epoch_slot_no, 0)::bigint AS epoch_slot_no
      FROM block b WHERE b.slot_no IS NOT NULL ORDER BY b.slot_no DESC LIMIT 1) t
LEFT JOIN (SELECT ep.protocol_major, min(ep.epoch_no)::bigint AS first_epoch
           FROM epoch_param ep GROUP BY ep.protocol_major) p ON true
ORDER BY p.first_epoch
