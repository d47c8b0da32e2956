-- follow_drep_distr: drep_distr for epoch $1, written at its first block:
-- per DRep, the stake of the new snapshot (epoch_stake of $1 + 1) of the
-- keys whose latest vote delegation names it, not deregistered since;
-- retired DReps left out; active_until the DRep's latest registration,
-- update or vote epoch plus drep_activity ($2), NULL for the predefined
-- DReps.
WITH dv AS (
  SELECT DISTINCT ON (d.addr_id) d.addr_id, d.drep_hash_id, d.tx_id
  FROM delegation_vote d ORDER BY d.addr_id, d.tx_id DESC, d.cert_index DESC
), active AS (
  SELECT dr.id, dr.raw,
         (SELECT max(b.epoch_no) FROM (
            SELECT r.tx_id FROM drep_registration r WHERE r.drep_hash_id = dr.id
            UNION ALL SELECT v.tx_id FROM voting_procedure v WHERE v.drep_voter = dr.id) x
          JOIN tx t ON t.id = x.tx_id JOIN block b ON b.id = t.block_id) AS last_active
  FROM drep_hash dr
  WHERE NOT EXISTS (SELECT 1 FROM drep_registration r WHERE r.drep_hash_id = dr.id AND r.deposit < 0)
    AND (dr.raw IS NULL OR EXISTS (SELECT 1 FROM drep_registration r WHERE r.drep_hash_id = dr.id))
)
INSERT INTO drep_distr (hash_id, amount, epoch_no, active_until)
SELECT a.id, sum(es.amount), $1, CASE WHEN a.raw IS NULL THEN NULL ELSE a.last_active + $2 END
FROM dv JOIN active a ON a.id = dv.drep_hash_id
JOIN epoch_stake es ON es.addr_id = dv.addr_id AND es.epoch_no = $1 + 1
WHERE NOT EXISTS (SELECT 1 FROM stake_deregistration x WHERE x.addr_id = dv.addr_id AND x.tx_id > dv.tx_id)
GROUP BY a.id, a.raw, a.last_active
ORDER BY a.id
