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
{{template "utxo_rows" .}}
WHERE o.stake_address_id = (
    SELECT sa.id FROM stake_address sa
    WHERE sa.hash_raw = ANY($1::bytea[])
    ORDER BY array_position($1::bytea[], sa.hash_raw::bytea)
    LIMIT 1
  )
  AND {{unspent "o"}}
  AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
ORDER BY o.tx_id, o.index
LIMIT $4
