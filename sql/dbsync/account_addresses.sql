-- account_addresses: one page of the distinct addresses that ever received
-- an output carrying a stake credential, in order of first appearance,
-- with the total, in one statement. Spent or not, so the same in both
-- db-sync modes. An empty page is one row with only total set.
-- The distinct addresses are found by a loose index scan: each step jumps
-- to the credential's next address in sg_tx_out_stake_address
-- (stake_address_id, address). Each address's first output is the first
-- entry of sg_tx_out_address_tx_id (address, tx_id) INCLUDE (index): every
-- output of an address carries the same stake part. Cost follows the
-- number of addresses, not of outputs: a stake key whose one address
-- holds 125 000 outputs took 3.3 s read output by output.
-- $1 stake_address.id, $2 limit, $3 offset
-- Indexes: sg_tx_out_stake_address, sg_tx_out_address_tx_id. Address-table
-- variant: sg_address_stake_address (address.stake_address_id), then
-- sg_tx_out_address_tx_id on (address_id, tx_id) for each first output.
{{template "account_address_items" .}}
SELECT c.total, p.n, p.address
{{template "page_in_order" .}}
ORDER BY p.n
