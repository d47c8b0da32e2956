-- accounts_txs_count: how many of a stake key's transaction pairs
-- (fragments.sql "stake_pairs") have a transaction id in [$2, $3), counted
-- up to $4: dbsync/account/txs.go counts from a keyset anchor, so a count
-- at the cap means "harvest anchors first", not a walk of the history.
-- $1 stake_address.id, $2 lowest tx id (inclusive), $3 highest tx id
-- (exclusive), $4 cap
-- Indexes: as "stake_pairs".
WITH {{template "stake_pairs" (args . "Walk" "$4::bigint")}}
SELECT count(*) FROM (SELECT 1 FROM pairs LIMIT $4) c
