-- lock_admin_key_partner: the partner of a live admin key, locked, so that revocations and rolls
-- of one partner's keys run one at a time (two concurrent revokes cannot each leave the other
-- key as "the last one"). $1 admin key id, $2 now. Uses admin_keys_pkey and partners_pkey.
-- No row: unknown, bootstrap, revoked or past its overlap.
SELECT p.id
FROM syncgate.admin_keys k
JOIN syncgate.partners p ON p.id = k.partner_id
WHERE k.id = $1
  AND NOT k.revoked
  AND (k.expires_at IS NULL OR k.expires_at > $2)
FOR UPDATE OF p
