-- balance_by_stake: the balance of every address carrying one stake
-- credential: lovelace and each native asset summed over its unspent
-- outputs ("unspent": see utxos_by_address.sql). One statement, so the
-- sums always match the UTxO set of one snapshot. The lovelace row has a
-- NULL policy; sums are numeric, read as text.
-- $1 bytea[] candidate stake_address.hash_raw values, preferred first
-- Indexes: unique_stake_address, idx_tx_out_stake_address_id (consumed:
-- sg_tx_out_unspent_stake); core: sg_tx_in_tx_out_id_index;
-- idx_ma_tx_out_tx_out_id; multi_asset_pkey.
-- The rows: fragments.sql "balance_of_utxo".
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
), {{template "balance_of_utxo" .}}
