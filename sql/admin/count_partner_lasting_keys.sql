-- count_partner_lasting_keys: how many of a partner's admin keys are live with no end in sight
-- (not revoked, not rolled with an overlap). None left: the partner can no longer be managed.
-- $1 partner_id. Uses admin_keys_partner_idx.
SELECT count(*)
FROM syncgate.admin_keys k
WHERE k.partner_id = $1
  AND NOT k.revoked
  AND k.expires_at IS NULL
