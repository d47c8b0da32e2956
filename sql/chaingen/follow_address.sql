-- follow_address: what the follower needs to pay address $1 as db-sync
-- stores it: its address row (address-table variant, else 0), script flag,
-- payment credential and stake address, from its newest output. Rendered
-- per layout by dbsync.Render.
SELECT {{if .AddressTable}}o.address_id{{else}}0::bigint{{end}} AS address_id,
       {{hasScript "o"}} AS has_script,
       {{paymentCred "o"}} AS payment_cred,
       COALESCE(o.stake_address_id, 0) AS stake_address_id
FROM tx_out o
{{joinAddress "o"}}
WHERE {{addrKey "o"}} = {{addrParam "$1"}}
ORDER BY o.id DESC
LIMIT 1
