-- txs_content: one transaction as Blockfrost's /txs/{hash} describes it, in one statement:
-- its block (hash, height, time, slot; height and slot 0 for the genesis distribution's
-- transactions, whose block has neither), its position in the block, lovelace out
-- (tx.out_sum) and its native assets out summed per asset ("policy.name.quantity", no
-- order: the caller sorts), fee, deposit (0 when db-sync's ledger is off and leaves it
-- NULL), size, validity interval, script validity, treasury donation, and the counts of
-- its inputs and outputs (utxo_count: what it spent and what it created; for a
-- transaction that failed phase-2 validation its collateral inputs and collateral
-- return), withdrawals, MIR certificates paying stake addresses (distinct certificate
-- indexes of treasury and reserve), delegations, stake (de)registrations, pool
-- registrations and updates, pool retirements, mint and burn rows and redeemers.
-- $1 bytea tx hash (32 bytes). No row: no such tx.
-- Indexes: unique_tx (hash); block_pkey; outputs idx_tx_out_tx_id; assets
-- idx_ma_tx_out_tx_out_id, multi_asset_pkey once per asset; inputs, core
-- idx_tx_in_tx_in_id, consumed idx_tx_out_consumed_by_tx_id; idx_withdrawal_tx_id;
-- idx_treasury_tx_id, idx_reserve_tx_id; idx_delegation_tx_id;
-- idx_stake_registration_tx_id, idx_stake_deregistration_tx_id;
-- idx_pool_update_registered_tx_id; idx_pool_retire_announced_tx_id; idx_ma_tx_mint_tx_id;
-- sg_redeemer_tx_id. Every count hangs off the one tx row, so an unknown hash costs one
-- probe of unique_tx.
WITH t AS MATERIALIZED (
  SELECT t.id, t.hash, t.block_id, t.block_index, t.out_sum, t.fee, t.deposit, t.size,
    t.invalid_before, t.invalid_hereafter, t.valid_contract, t.treasury_donation
  FROM tx t
  WHERE t.hash = $1::bytea
)
SELECT
  encode(t.hash, 'hex') AS hash,
  encode(b.hash, 'hex') AS block_hash,
  COALESCE(b.block_no, 0) AS block_no,
  b.time AS block_time,
  COALESCE(b.slot_no, 0) AS slot_no,
  t.block_index,
  t.out_sum::text AS out_sum,
  t.fee::text AS fee,
  COALESCE(t.deposit, 0)::text AS deposit,
  t.size,
  t.invalid_before::text AS invalid_before,
  t.invalid_hereafter::text AS invalid_hereafter,
  t.valid_contract,
  t.treasury_donation::text AS treasury_donation,
  (SELECT count(*) FROM tx_out o WHERE o.tx_id = t.id)
{{- if .Consumed}}
    + (SELECT count(*) FROM tx_out o WHERE o.consumed_by_tx_id = t.id) AS utxo_count,
{{- else}}
    + (SELECT count(*) FROM tx_in i WHERE i.tx_in_id = t.id) AS utxo_count,
{{- end}}
  (SELECT count(*) FROM withdrawal w WHERE w.tx_id = t.id) AS withdrawal_count,
  (SELECT count(DISTINCT m.cert_index) FROM (
     SELECT r.cert_index FROM reserve r WHERE r.tx_id = t.id
     UNION ALL
     SELECT tr.cert_index FROM treasury tr WHERE tr.tx_id = t.id
   ) m) AS mir_cert_count,
  (SELECT count(*) FROM delegation d WHERE d.tx_id = t.id) AS delegation_count,
  (SELECT count(*) FROM stake_registration sr WHERE sr.tx_id = t.id)
    + (SELECT count(*) FROM stake_deregistration sd WHERE sd.tx_id = t.id) AS stake_cert_count,
  (SELECT count(*) FROM pool_update pu WHERE pu.registered_tx_id = t.id) AS pool_update_count,
  (SELECT count(*) FROM pool_retire pr WHERE pr.announced_tx_id = t.id) AS pool_retire_count,
  (SELECT count(*) FROM ma_tx_mint mm WHERE mm.tx_id = t.id) AS mint_count,
  (SELECT count(*) FROM redeemer rd WHERE rd.tx_id = t.id) AS redeemer_count,
  ARRAY(
    SELECT (SELECT encode(a.policy, 'hex') || '.' || encode(a.name, 'hex') FROM multi_asset a WHERE a.id = s.ident)
      || '.' || s.quantity::text
    FROM (
      SELECT mto.ident, sum(mto.quantity) AS quantity
      FROM tx_out o
      JOIN ma_tx_out mto ON mto.tx_out_id = o.id
      WHERE o.tx_id = t.id
      GROUP BY mto.ident
    ) s
  ) AS assets
FROM t
JOIN block b ON b.id = t.block_id
