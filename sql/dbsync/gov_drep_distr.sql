-- gov_drep_distr: every DRep's voting power in epoch $1 (db-sync writes
-- an epoch's distribution at its first block). Read once an epoch.
-- Indexes: sg_drep_distr_epoch (index only).
SELECT dd.hash_id, dd.amount::text AS amount
FROM drep_distr dd
WHERE dd.epoch_no = $1
