-- big_multi_asset_insert: the big policy's assets ($1 policy; per asset
-- $2 id, $3 name, $4 CIP-14 fingerprint), in array order: db-sync adds an
-- asset at its first mint, so ids ascend in minting order.
INSERT INTO multi_asset (id, policy, name, fingerprint)
SELECT u.id, $1::bytea, u.name, u.fingerprint
FROM unnest($2::bigint[], $3::bytea[], $4::text[]) WITH ORDINALITY AS u(id, name, fingerprint, ord)
ORDER BY u.ord
