-- user_owned: whether partner $2 owns user account $1 (a row: yes; none: no).
-- $1 user id, $2 partner_id. Uses user_accounts_pkey.
SELECT true
FROM syncgate.user_accounts
WHERE id = $1
  AND partner_id = $2
