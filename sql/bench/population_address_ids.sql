-- population_address_ids: the address and payment credential (hex, NULL
-- for Byron addresses) of each address id in $1 (address-table layout).
-- Uses address_pkey.
SELECT
  a.id,
  a.address,
  encode(a.payment_cred, 'hex') AS payment_cred
FROM address a
WHERE a.id = ANY($1::bigint[])
