-- gov_drep_find: the drep_hash row of a DRep: by its hash and kind ($1
-- bytea, 28 bytes; $2 has_script), or, $1 NULL, a predefined DRep by its
-- view ($3: drep_always_abstain, drep_always_no_confidence; raw NULL).
-- Indexes: unique_drep_hash (raw, has_script), also for raw IS NULL.
(SELECT dh.id, dh.view, COALESCE(encode(dh.raw, 'hex'), '') AS hex, dh.has_script
 FROM drep_hash dh
 WHERE dh.raw = $1::bytea AND dh.has_script = $2)
UNION ALL
(SELECT dh.id, dh.view, '' AS hex, dh.has_script
 FROM drep_hash dh
 WHERE $1::bytea IS NULL AND dh.raw IS NULL AND dh.view = $3::text)
LIMIT 1
