-- utxos_by_credential: the unspent outputs of every address whose payment
-- credential is $1 (base, enterprise, pointer; any stake part), in chain
-- order ("unspent": see utxos_by_address.sql).
-- $1 bytea 28-byte key or script hash (tx_out.payment_cred)
-- $2, $3 keyset: only outputs after (tx_id $2, index $3); -1, -1 for the
--   first chunk. $4 chunk size (see utxos_by_address.sql).
-- Indexes: core, idx_tx_out_payment_cred (db-sync's own) and
-- sg_tx_in_tx_out_id_index for the anti-join; consumed,
-- sg_tx_out_unspent_payment_cred (unspent outputs only, in tx order);
-- tx_pkey, block_pkey.
-- +utxoindex: as utxos_by_stake.sql, through output_live_payment_cred (the
-- index keeps payment_cred in both address layouts).
{{if .SpentIndex -}}
WITH spent_state AS MATERIALIZED (
{{template "spent_state"}}
), ids AS MATERIALIZED (
  (SELECT u.tx_out_id AS id, u.tx_id, u.index
  FROM syncgate_utxo.output u
  WHERE u.payment_cred = $1
    AND u.spent_by_tx_id IS NULL
    AND u.tx_id <= (SELECT h FROM spent_state)
    AND u.tx_id >= $2 AND (u.tx_id > $2 OR u.index > $3)
    AND {{unspent "u"}}
  ORDER BY u.tx_id, u.index
  LIMIT $4)
  UNION ALL
  (SELECT o.id, o.tx_id, o.index
  FROM generate_series(greatest((SELECT h FROM spent_state) + 1, $2), (SELECT max(id) FROM tx)) g(tx_id)
  CROSS JOIN LATERAL (SELECT * FROM tx_out o WHERE o.tx_id = g.tx_id OFFSET 0) o
  WHERE (SELECT ok FROM spent_state)
    AND {{credentialIs "o" "$1"}}
    AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
    AND {{unspent "o"}}
  ORDER BY o.tx_id, o.index
  LIMIT $4)
  UNION ALL
  (SELECT o.id, o.tx_id, o.index
  FROM tx_out o
  WHERE NOT (SELECT ok FROM spent_state)
    AND {{credentialIs "o" "$1"}}
    AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
    AND {{unspent "o"}}
  ORDER BY o.tx_id, o.index
  LIMIT $4)
)
{{template "utxo_rows" .}}
JOIN ids i ON i.id = o.id
ORDER BY i.tx_id, i.index
LIMIT $4
{{- else -}}
{{template "utxo_rows" .}}
WHERE {{credentialIs "o" "$1"}}
  AND {{unspent "o"}}
  AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
ORDER BY o.tx_id, o.index
LIMIT $4
{{- end}}
