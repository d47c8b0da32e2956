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
-- transactions after h (a few blocks: one unique_txout probe per tx, so
-- the cost follows the lag, not the credential's history), each checked
-- against tx_in (OFFSET 0 keeps each tx's outputs a subquery read by
-- unique_txout, with the key tested after: flattened, the planner may walk
-- the key's whole history instead); after a rollback below h
-- (spent_state.ok false) the core-mode walk instead. Rows by id
-- (tx_out_pkey).
{{if .SpentIndex -}}
WITH spent_state AS MATERIALIZED (
{{template "spent_state"}}
), stake AS MATERIALIZED (
  SELECT (
      SELECT sa.id FROM stake_address sa
      WHERE sa.hash_raw = ANY($1::bytea[])
      ORDER BY array_position($1::bytea[], sa.hash_raw::bytea)
      LIMIT 1
    ) AS id
), ids AS MATERIALIZED (
  (SELECT u.tx_out_id AS id, u.tx_id, u.index
  FROM syncgate_utxo.output u
  WHERE u.stake_address_id = (SELECT id FROM stake)
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
    AND o.stake_address_id = (SELECT id FROM stake)
    AND o.tx_id >= $2 AND (o.tx_id > $2 OR o.index > $3)
    AND {{unspent "o"}}
  ORDER BY o.tx_id, o.index
  LIMIT $4)
  UNION ALL
  (SELECT o.id, o.tx_id, o.index
  FROM tx_out o
  WHERE NOT (SELECT ok FROM spent_state)
    AND o.stake_address_id = (SELECT id FROM stake)
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
{{- end}}
