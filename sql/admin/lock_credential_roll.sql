-- lock_credential_roll: lock an owned, live credential for a roll, so that rolls of one credential
-- run one at a time, and return when its previous key's overlap ends (NULL: never rolled).
-- $1 id, $2 owning partner_id. Uses credentials_pkey (or credentials_partner_idx, whose condition
-- names the id too). No row: missing, not owned or revoked.
SELECT c.previous_key_expires_at
FROM syncgate.credentials c
WHERE c.id = $1
  AND c.partner_id = $2
  AND NOT c.revoked
FOR UPDATE
