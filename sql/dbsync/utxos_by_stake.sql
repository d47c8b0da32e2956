-- utxos_by_stake: the unspent outputs of every address carrying one stake
-- credential, in chain order ("unspent": see utxos_by_address.sql). The
-- stake address is resolved from its candidate reward-address bytes, the
-- first candidate that exists winning (key credential before script).
-- $1 bytea[] candidate stake_address.hash_raw values, preferred first
-- $2, $3 keyset: only outputs after (tx_id $2, index $3); -1, -1 for the
--   first chunk. $4 chunk size (see utxos_by_address.sql).
-- Indexes: unique_stake_address (hash_raw); idx_tx_out_stake_address_id
-- (consumed: sg_tx_out_unspent_stake); core: sg_tx_in_tx_out_id_index for
-- the anti-join; tx_pkey, block_pkey.
-- +utxoindex: the index's live rows of the stake credential up to its
-- high-water tx h (output_live_stake), then the outputs of the
-- transactions after h, each checked against tx_in; after a rollback
-- below h the core-mode walk instead (fragments.sql "unspent_ids"). Rows
-- by id (tx_out_pkey).
{{if .SpentIndex -}}
WITH spent_state AS MATERIALIZED (
{{template "spent_state"}}
), stake AS MATERIALIZED (
  SELECT ({{template "stake_id"}}) AS id
), ids AS MATERIALIZED (
{{template "unspent_ids" "stake"}}
)
{{template "utxos_of_ids" .}}
{{- else -}}
{{template "utxo_rows" .}}
WHERE o.stake_address_id = ({{template "stake_id"}})
  AND {{unspent "o"}}
  AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
ORDER BY o.tx_id, o.index
LIMIT $4
{{- end}}
