-- gov_committee_hot_ids: the hot credentials whose votes a committee
-- credential's votes are: itself when it is a hot one ($3 true), else
-- every hot key the cold one ($1 bytea, $2 has_script) ever authorised.
-- known: the credential is in committee_hash at all (a hot one only once
-- authorised, a cold one once a member or authorising).
-- Indexes: unique_committee_hash (raw, has_script); committee_registration
-- is a few hundred rows.
WITH cred AS (
  SELECT ch.id FROM committee_hash ch WHERE ch.raw = $1::bytea AND ch.has_script = $2
)
SELECT (SELECT count(*) > 0 FROM cred) AS known,
  ARRAY(
    SELECT id FROM cred WHERE $3
    UNION
    SELECT cr.hot_key_id FROM committee_registration cr
    WHERE NOT $3 AND cr.cold_key_id IN (SELECT id FROM cred)
  )::bigint[] AS hot_ids
