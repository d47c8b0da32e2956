-- balance_by_stake: the balance of every address carrying one stake
-- credential: lovelace and each native asset summed over its unspent
-- outputs ("unspent": see utxos_by_address.sql). One statement, so the
-- sums always match the UTxO set of one snapshot. The lovelace row has a
-- NULL policy; sums are numeric, read as text.
-- $1 bytea[] candidate stake_address.hash_raw values, preferred first
-- Indexes: unique_stake_address, idx_tx_out_stake_address_id (consumed:
-- sg_tx_out_unspent_stake); core: sg_tx_in_tx_out_id_index;
-- idx_ma_tx_out_tx_out_id; multi_asset_pkey.
-- Assets are summed per multi_asset id first, then named through
-- multi_asset_pkey (= ANY of the ids): a generic plan joining every holding
-- to multi_asset by hash read the whole table (millions of rows on mainnet).
WITH utxo AS MATERIALIZED (
  SELECT o.id, o.value
  FROM tx_out o
  WHERE o.stake_address_id = (
      SELECT sa.id FROM stake_address sa
      WHERE sa.hash_raw = ANY($1::bytea[])
      ORDER BY array_position($1::bytea[], sa.hash_raw::bytea)
      LIMIT 1
    )
    AND {{unspent "o"}}
), held AS MATERIALIZED (
  SELECT mto.ident, sum(mto.quantity) AS quantity
  FROM utxo u
  JOIN ma_tx_out mto ON mto.tx_out_id = u.id
  GROUP BY mto.ident
)
SELECT NULL::text AS policy, NULL::text AS name, COALESCE(sum(u.value), 0)::text AS quantity
FROM utxo u
UNION ALL
SELECT encode(ma.policy, 'hex'), encode(ma.name, 'hex'), h.quantity::text
FROM multi_asset ma
JOIN held h ON h.ident = ma.id
WHERE ma.id = ANY(ARRAY(SELECT ident FROM held))
