-- follow_gov_voters: who may vote at the tip, and on what: the open
-- proposals (kind 'p', with their type), the registered DReps ('d'), and
-- the committee's current hot keys ('c': latest authorisation of a cold
-- key that has not resigned).
SELECT 'p', p.id, p.type::text FROM gov_action_proposal p
WHERE p.ratified_epoch IS NULL AND p.enacted_epoch IS NULL AND p.dropped_epoch IS NULL AND p.expired_epoch IS NULL
UNION ALL
SELECT 'd', d.id, '' FROM drep_hash d
WHERE EXISTS (SELECT 1 FROM drep_registration r WHERE r.drep_hash_id = d.id)
  AND NOT EXISTS (SELECT 1 FROM drep_registration r WHERE r.drep_hash_id = d.id AND r.deposit < 0)
UNION ALL
SELECT 'c', (SELECT r.hot_key_id FROM committee_registration r WHERE r.cold_key_id = c.cold_key_id ORDER BY r.id DESC LIMIT 1), ''
FROM (SELECT DISTINCT cold_key_id FROM committee_registration) c
WHERE NOT EXISTS (SELECT 1 FROM committee_de_registration x WHERE x.cold_key_id = c.cold_key_id)
ORDER BY 1, 2
