-- plan_credential_hashes: key hashes of the live credentials (a rolled one's previous key too) of
-- every user on a plan, whose caches a plan change invalidates.
-- $1 plan id. Uses user_accounts_plan_idx and credentials_user_idx.
SELECT h.key_hash
FROM syncgate.user_accounts u
JOIN syncgate.credentials c ON c.user_account_id = u.id
CROSS JOIN LATERAL (VALUES (c.key_hash), (c.previous_key_hash)) AS h (key_hash)
WHERE u.plan_id = $1
  AND NOT c.revoked
  AND h.key_hash IS NOT NULL
