-- accounts_addresses: one page of Blockfrost's account addresses: the
-- distinct addresses that ever received an output carrying the stake
-- credential, in order of first appearance (either way), found as
-- account_addresses.sql finds them (a loose index scan: cost follows the
-- number of addresses, not of outputs). Spent or not, so the same in both
-- db-sync modes.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: as account_addresses.sql.
{{template "account_address_items" .}}
SELECT i.address
FROM items i
ORDER BY i.n {{.Order}}
LIMIT $2 OFFSET $3
