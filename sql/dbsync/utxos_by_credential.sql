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
{{template "unspent_ids" "credential"}}
)
{{template "utxos_of_ids" .}}
{{- else -}}
{{template "utxo_rows" .}}
WHERE {{credentialIs "o" "$1"}}
  AND {{unspent "o"}}
  AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
ORDER BY o.tx_id, o.index
LIMIT $4
{{- end}}
